package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
)

// repoSchema is the JSON schema name printed by `roster repo --json`.
const repoSchema = "roster.repo/v1"

// repoReport is one read of a repository in the exact roster.repo/v1 shape
// (DESIGN.md "repo --json"); field order here is the order printed. Slices are
// never nil so JSON shows [] rather than null; pointers are the fields DESIGN
// allows to be null. Unexported fields feed only the human rendering.
type repoReport struct {
	Schema                         string            `json:"schema"`
	Coordinate                     coordinateJSON    `json:"coordinate"`
	SelectedMaintainer             string            `json:"selected_maintainer"`
	peopleJSON                                       // lead_maintainer ... moderators
	PendingHistoryAcknowledgements []pendingAckJSON  `json:"pending_history_acknowledgements"`
	Health                         []findingJSON     `json:"health"`
	RecommendedCoordinate          *string           `json:"recommended_coordinate"`
	FollowLeadCommand              *string           `json:"follow_lead_command"`
	Lifecycle                      lifecycleJSON     `json:"lifecycle"`
	State                          *stateJSON        `json:"state"`
	Relays                         []relayReportJSON `json:"relays"`
	Complete                       bool              `json:"complete"`

	meta    repoMetadata // announcement metadata, human output only
	offline bool         // answered from the cache alone
	viewer  string       // npub of the signed-in user, "" for nobody
}

type coordinateJSON struct {
	Kind       int    `json:"kind"`
	Pubkey     string `json:"pubkey"`
	Npub       string `json:"npub"`
	Identifier string `json:"identifier"`
	Naddr      string `json:"naddr"`
}

type memberJSON struct {
	Npub   string `json:"npub"`
	Pubkey string `json:"pubkey"`
	Status string `json:"status"` // confirmed | invited
}

type pendingAckJSON struct {
	Npub       string `json:"npub"`
	Transition string `json:"transition"` // start | end
	Time       int64  `json:"time"`
	Command    string `json:"command"`

	author string // npub of whose announcement lacks it, human output only
}

type findingJSON struct {
	Severity string  `json:"severity"` // error | warning
	Code     string  `json:"code"`
	Author   *string `json:"author"` // npub, null when the finding concerns no one author
	Message  string  `json:"message"`
	Command  *string `json:"command"` // null when there is nothing to run
}

type lifecycleJSON struct {
	Status string  `json:"status"` // active | archived | deleted | restarted
	Actor  *string `json:"actor"`  // npub; null while active
	Time   *int64  `json:"time"`   // unix seconds; null while active
}

type stateJSON struct {
	EventID string            `json:"event_id"`
	Author  string            `json:"author"`
	Head    string            `json:"head"`
	Refs    map[string]string `json:"refs"` // encoding/json sorts map keys: stable order
}

type relayReportJSON struct {
	URL    string `json:"url"`
	Status string `json:"status"` // ok | closed | failed | timeout
	Events int    `json:"events"`

	reason string // why a relay closed or failed, human output only
	// dropped counts events the relay sent that failed verification (id,
	// signature or filter); human output only, roster.repo/v1 has no field.
	dropped int
}

// repoMetadata is the selected announcement's descriptive fields.
type repoMetadata struct {
	Name, Description string
	Clone, Web        []string
	Relays            []string
	EUC               string // earliest unique commit
}

// writeRepoJSON prints v as indented JSON without HTML escaping, so messages
// keep their literal "<" and ">".
func writeRepoJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// outputStyles is the small palette of the human output. The zero value (plain)
// prints text unchanged: used when stdout is not a terminal or NO_COLOR is set.
type outputStyles struct {
	label, good, warn, bad, dim lipgloss.Style
	on                          bool
}

func newOutputStyles(w io.Writer, color bool) outputStyles {
	if !color {
		return outputStyles{}
	}
	r := lipgloss.NewRenderer(w)
	// The decision to colour was made from our own TTY/NO_COLOR view; basic ANSI
	// works on every terminal, so don't let termenv re-probe the environment.
	r.SetColorProfile(termenv.ANSI)
	return outputStyles{
		on:    true,
		label: r.NewStyle().Bold(true),
		good:  r.NewStyle().Foreground(lipgloss.Color("2")),
		warn:  r.NewStyle().Foreground(lipgloss.Color("3")),
		bad:   r.NewStyle().Foreground(lipgloss.Color("1")).Bold(true),
		dim:   r.NewStyle().Foreground(lipgloss.Color("8")),
	}
}

func (s outputStyles) apply(st lipgloss.Style, text string) string {
	if !s.on || text == "" {
		return text
	}
	return st.Render(text)
}

// leadSourceText explains lead_source in words, answering "is the lead
// explicit, legacy-inferred, or unresolved?".
func leadSourceText(src string) string {
	switch src {
	case "implicit_sole":
		return "implicit: the sole maintainer"
	case "explicit":
		return "explicit"
	case "legacy_inferred":
		return "legacy-inferred from maintainers listings"
	case "explicit_none":
		return "none: deliberately leadless"
	case "none":
		return "unresolved: legacy listings have no unique winner"
	case "pending":
		return "unresolved: the lead pointer path is pending"
	case "conflict":
		return "unresolved: the lead pointer path conflicts"
	}
	return src
}

// renderRepoHuman prints the human view: the spec's four questions first
// (selected coordinate; lead and its source; confirmed, invited, moderators;
// pending acknowledgements or a coordinate to follow), then metadata, state,
// lifecycle, health and relays.
func renderRepoHuman(w io.Writer, rep *repoReport, st outputStyles) {
	p := &linePrinter{w: w, st: st}
	id := rep.Coordinate.Identifier

	// 1. Which maintainer coordinate did this checkout select?
	p.row("repository", id)
	p.row("selected", rep.SelectedMaintainer+"/"+id)
	p.note("the entry point, and the only key that can replace its announcement")

	// 2. Who is the lead, and is that explicit, legacy-inferred or unresolved?
	lead := "none"
	if rep.LeadMaintainer != nil {
		lead = *rep.LeadMaintainer
	}
	source := leadSourceText(rep.LeadSource)
	if rep.LeadMaintainer == nil && rep.Lifecycle.Status != "" && rep.Lifecycle.Status != "active" {
		// A deleted or archived coordinate grants no authority; say why
		// rather than describe an empty graph.
		source = "none: this coordinate is " + rep.Lifecycle.Status
	}
	p.row("lead", lead+"  "+st.apply(st.dim, "("+source+")"))
	if len(rep.LeadPath) > 1 {
		p.note("path " + strings.Join(rep.LeadPath, " -> "))
	}

	// 3. Who is confirmed, invited, or a moderator?
	p.members("maintainers", rep.Maintainers, rep)
	p.members("moderators", rep.Moderators, nil)

	// 4. Pending history acknowledgements or a safer lead coordinate to follow?
	if len(rep.PendingHistoryAcknowledgements) == 0 {
		p.row("pending", "no history acknowledgements")
	}
	for i, ack := range rep.PendingHistoryAcknowledgements {
		label := ""
		if i == 0 {
			label = "pending"
		}
		verb := "started"
		if ack.Transition == "end" {
			verb = "ended"
		}
		p.row(label, fmt.Sprintf("%s %s maintainership at %s", ack.Npub, verb, humanTime(ack.Time)))
		who := ack.author + " records"
		if ack.author != "" && ack.author == rep.viewer {
			who = "record"
		}
		p.note(who + " it with: " + ack.Command)
	}
	if rep.FollowLeadCommand != nil {
		target := ""
		if rep.RecommendedCoordinate != nil {
			target = *rep.RecommendedCoordinate
		}
		p.row("follow", st.apply(st.warn, "the lead coordinate is "+target))
		p.note("switch with: " + *rep.FollowLeadCommand)
	} else if rep.RecommendedCoordinate != nil {
		p.row("follow", "this checkout already selects the lead coordinate")
	}

	// Then metadata and state.
	p.blank()
	m := rep.meta
	p.rowIf("name", m.Name)
	p.rowIf("description", m.Description)
	p.list("clone", m.Clone)
	p.list("web", m.Web)
	p.list("announced relays", m.Relays)
	p.rowIf("earliest commit", m.EUC)
	p.row("lifecycle", lifecycleText(rep.Lifecycle, st))
	if rep.State == nil {
		p.row("state", "no kind 30618 state from a confirmed maintainer")
	} else {
		s := rep.State
		p.row("state", fmt.Sprintf("HEAD %s, %d refs, by %s", dashIfEmpty(s.Head), len(s.Refs), s.Author))
		names := make([]string, 0, len(s.Refs))
		for n := range s.Refs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			p.note(fmt.Sprintf("%s  %s", s.Refs[n], n))
		}
	}

	p.blank()
	renderHealthSummary(p, rep)
	renderRelays(p, rep)
}

// renderHealthSummary counts the findings and lists each one briefly; `roster
// repo health` is the CI-facing view of the same list.
func renderHealthSummary(p *linePrinter, rep *repoReport) {
	errs, warns := countFindings(rep.Health)
	if errs+warns == 0 {
		p.row("health", p.st.apply(p.st.good, "no findings"))
		return
	}
	text := fmt.Sprintf("%d error(s), %d warning(s)", errs, warns)
	style := p.st.warn
	if errs > 0 {
		style = p.st.bad
	}
	p.row("health", p.st.apply(style, text))
	for _, f := range rep.Health {
		p.note(f.Severity + " " + f.Code + ": " + f.Message)
		if f.Command != nil {
			p.note("  repair with: " + *f.Command)
		}
	}
}

// renderRelays names every relay read and, when evidence is incomplete, says
// which relays failed and why, so a partial answer is never mistaken for a full one.
func renderRelays(p *linePrinter, rep *repoReport) {
	if rep.offline {
		p.row("relays", p.st.apply(p.st.warn, "not contacted (--offline): answered from the local cache"))
		p.note("cached events may be stale; run without --offline to refresh")
		return
	}
	for i, r := range rep.Relays {
		label := ""
		if i == 0 {
			label = "relays"
		}
		text := fmt.Sprintf("%s  %s, %d event(s)", r.URL, r.Status, r.Events)
		if r.dropped > 0 {
			// A relay serving forged or altered events is worth knowing
			// about even though roster ignored them.
			text += fmt.Sprintf(", %d ignored (bad id, signature or filter)", r.dropped)
		}
		if r.reason != "" {
			text += ": " + r.reason
		}
		if r.Status != "ok" || r.dropped > 0 {
			text = p.st.apply(p.st.bad, text)
		}
		p.row(label, text)
	}
	if !rep.Complete {
		var failed []string
		for _, r := range rep.Relays {
			if r.Status != "ok" {
				failed = append(failed, r.URL)
			}
		}
		p.row("complete", p.st.apply(p.st.warn, "no: partial answer, "+strings.Join(failed, ", ")+" did not answer"))
	} else {
		p.row("complete", "yes: every relay answered")
	}
}

func countFindings(fs []findingJSON) (errs, warns int) {
	for _, f := range fs {
		if f.Severity == "error" {
			errs++
		} else {
			warns++
		}
	}
	return errs, warns
}

func lifecycleText(l lifecycleJSON, st outputStyles) string {
	if l.Status == "active" || l.Status == "" {
		return "active"
	}
	text := l.Status
	if l.Actor != nil {
		text += " by " + *l.Actor
	}
	if l.Time != nil {
		text += " at " + humanTime(*l.Time)
	}
	return st.apply(st.warn, text)
}

func humanTime(unix int64) string {
	if unix <= 0 {
		return "an unknown time"
	}
	return time.Unix(unix, 0).UTC().Format("2006-01-02 15:04:05 UTC")
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// linePrinter writes "label  value" rows with a fixed label column.
type linePrinter struct {
	w  io.Writer
	st outputStyles
}

const labelWidth = 17

func (p *linePrinter) row(label, value string) {
	// Width, not len: a label may carry ANSI styling.
	pad := strings.Repeat(" ", max(1, labelWidth-lipgloss.Width(label)))
	fmt.Fprintf(p.w, "%s%s%s\n", p.st.apply(p.st.label, label), pad, value)
}

func (p *linePrinter) rowIf(label, value string) {
	if value != "" {
		p.row(label, value)
	}
}

func (p *linePrinter) note(text string) {
	fmt.Fprintf(p.w, "%s  %s\n", strings.Repeat(" ", labelWidth), p.st.apply(p.st.dim, text))
}

func (p *linePrinter) list(label string, values []string) {
	for i, v := range values {
		if i > 0 {
			label = ""
		}
		p.row(label, v)
	}
}

func (p *linePrinter) blank() { fmt.Fprintln(p.w) }

// members lists people lead first, then confirmed, then invited, marking
// the lead, the selected maintainer and the viewer.
func (p *linePrinter) members(label string, ms []memberJSON, rep *repoReport) {
	if len(ms) == 0 {
		p.row(label, "none")
		return
	}
	rank := func(m memberJSON) int {
		switch {
		case rep != nil && rep.LeadMaintainer != nil && *rep.LeadMaintainer == m.Npub:
			return 0
		case m.Status == "confirmed":
			return 1
		}
		return 2
	}
	sorted := append([]memberJSON{}, ms...)
	sort.SliceStable(sorted, func(i, j int) bool { return rank(sorted[i]) < rank(sorted[j]) })
	for i, m := range sorted {
		if i > 0 {
			label = ""
		}
		status := p.st.apply(p.st.good, m.Status)
		if m.Status != "confirmed" {
			status = p.st.apply(p.st.warn, m.Status)
		}
		var marks []string
		if rep != nil && rank(m) == 0 {
			marks = append(marks, "lead")
		}
		if rep != nil && m.Npub == rep.SelectedMaintainer {
			marks = append(marks, "selected")
		}
		if rep != nil && rep.viewer != "" && m.Npub == rep.viewer {
			marks = append(marks, "you")
		}
		extra := ""
		if len(marks) > 0 {
			extra = " (" + strings.Join(marks, ", ") + ")"
		}
		p.row(label, fmt.Sprintf("%s  %s%s", m.Npub, status, extra))
	}
}

// peopleJSON are the lead and membership fields that roster.repo/v1,
// roster.mutation/v1 and a mutation preview's before/after share, in order.
type peopleJSON struct {
	LeadMaintainer *string      `json:"lead_maintainer"`
	LeadSource     string       `json:"lead_source"`
	LeadPath       []string     `json:"lead_path"`
	Maintainers    []memberJSON `json:"maintainers"`
	Moderators     []memberJSON `json:"moderators"`
}

func peopleOf(r *graph.Resolution) peopleJSON {
	p := peopleJSON{LeadSource: string(r.LeadSource), LeadPath: npubsOf(r.LeadPath),
		Maintainers: membersJSON(r.Maintainers), Moderators: membersJSON(r.Moderators)}
	if r.Lead != "" {
		l := graph.Npub(r.Lead)
		p.LeadMaintainer = &l
	}
	return p
}

// buildRepoReport maps one discovery onto roster.repo/v1. graph speaks hex;
// people get npubs here and nowhere earlier.
func buildRepoReport(v *repoView) *repoReport {
	r := v.Resolution
	c := v.Coordinate()
	rep := &repoReport{
		Schema: repoSchema,
		Coordinate: coordinateJSON{Kind: c.Kind, Pubkey: c.Pubkey, Npub: gitstate.EncodeNpub(c.Pubkey),
			Identifier: c.Identifier, Naddr: gitstate.EncodeNaddr(c, nil)},
		SelectedMaintainer:             gitstate.EncodeNpub(c.Pubkey),
		peopleJSON:                     peopleOf(r),
		PendingHistoryAcknowledgements: []pendingAckJSON{},
		Health:                         []findingJSON{},
		Lifecycle:                      lifecycleJSON{Status: r.Lifecycle.Status},
		Relays:                         []relayReportJSON{},
		Complete:                       v.Complete(),
		offline:                        v.Offline,
	}
	if v.Viewer != "" {
		rep.viewer = gitstate.EncodeNpub(v.Viewer)
	}
	for _, p := range r.PendingAcknowledgements {
		rep.PendingHistoryAcknowledgements = append(rep.PendingHistoryAcknowledgements, pendingAckJSON{
			Npub: gitstate.EncodeNpub(p.Pubkey), Transition: p.Transition, Time: p.Time, Command: p.Command,
			author: gitstate.EncodeNpub(p.Author)})
	}
	for _, f := range r.Health {
		rep.Health = append(rep.Health, findingToJSON(f))
	}
	if r.RecommendedCoordinate != nil {
		u := gitstate.NostrURL(*r.RecommendedCoordinate, nil)
		rep.RecommendedCoordinate = &u
	}
	if r.FollowLead {
		cmd := graph.CommandFollowLead
		rep.FollowLeadCommand = &cmd
	}
	if r.Lifecycle.Status != graph.LifecycleActive {
		actor, t := gitstate.EncodeNpub(r.Lifecycle.Actor), r.Lifecycle.Time
		rep.Lifecycle.Actor, rep.Lifecycle.Time = &actor, &t
	}
	if v.State != nil {
		rep.State = &stateJSON{EventID: v.State.EventID, Author: gitstate.EncodeNpub(v.State.Author),
			Head: v.State.Head, Refs: map[string]string{}}
		for k, val := range v.State.Refs {
			rep.State.Refs[k] = val
		}
	}
	if v.Fetch != nil {
		for _, rr := range v.Fetch.Relays {
			rep.Relays = append(rep.Relays, relayReportJSON{URL: rr.URL, Status: rr.Status,
				Events: rr.Events, reason: rr.Reason, dropped: rr.Dropped})
		}
	}
	rep.meta = metadataOf(r)
	return rep
}

// metadataOf reads the selected announcement's descriptive fields, falling
// back to its last observed snapshot (archived or deleted coordinates stay
// readable).
func metadataOf(r *graph.Resolution) repoMetadata {
	a := r.Announcements[r.SelectedMaintainer]
	if a == nil {
		a = r.LastSnapshot
	}
	if a == nil {
		return repoMetadata{}
	}
	return repoMetadata{Name: a.Name, Description: a.Description, Clone: a.Clone, Web: a.Web, Relays: a.Relays, EUC: a.EUC}
}

func findingToJSON(f graph.Finding) findingJSON {
	out := findingJSON{Severity: string(f.Severity), Code: f.Code, Message: f.Message}
	if f.Author != "" {
		a := gitstate.EncodeNpub(f.Author)
		out.Author = &a
	}
	if f.Command != "" {
		c := f.Command
		out.Command = &c
	}
	return out
}

func membersJSON(ms []graph.Member) []memberJSON {
	out := make([]memberJSON, 0, len(ms))
	for _, m := range ms {
		out = append(out, memberJSON{Npub: gitstate.EncodeNpub(m.Pubkey), Pubkey: m.Pubkey, Status: m.Status})
	}
	return out
}

func npubsOf(hexes []string) []string {
	out := make([]string, 0, len(hexes))
	for _, h := range hexes {
		out = append(out, gitstate.EncodeNpub(h))
	}
	return out
}

// relayProgress is the "reading relays" indicator: one self-overwriting line
// on stderr, only when stderr is a terminal, erased when discovery ends so
// it never mixes with output. Relays report from several goroutines.
type relayProgress struct {
	w    io.Writer
	on   bool
	mu   sync.Mutex
	base int // relays finished in earlier rounds
	last int // total of the current round
}

func newRelayProgress(w io.Writer, tty bool) *relayProgress {
	p := &relayProgress{w: w, on: tty}
	if tty {
		fmt.Fprint(w, "\rreading relays...")
	}
	return p
}

// update is relaypool's Progress callback.
func (p *relayProgress) update(done, total int) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = total
	// "done", not "answered": relaypool counts a relay that failed or timed
	// out as finished, and roster never calls a silent relay an answer.
	fmt.Fprintf(p.w, "\r\x1b[Kreading relays: %d of %d done", p.base+done, p.base+total)
}

// nextRound starts counting a follow-up round after the finished one.
func (p *relayProgress) nextRound() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.base += p.last
	p.last = 0
}

// done erases the indicator line.
func (p *relayProgress) done() {
	if p.on {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
