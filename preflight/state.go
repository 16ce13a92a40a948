package preflight

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/roster-cli/roster/suggest"
)

// ResolvedState is the kind 30618 state one resolution selects.
type ResolvedState struct {
	EventID string            `json:"event_id"`
	Author  string            `json:"author"`
	Head    string            `json:"head"` // "refs/heads/main", "" when unknown
	Refs    map[string]string `json:"refs"`
}

// PersonState is one person's latest kind 30618 event, eligible or not.
type PersonState struct {
	Pubkey string
	State  *ResolvedState // nil: they published none (or deleted it)
}

// StateInput is what the kind 30618 comparison of one mutation reads.
type StateInput struct {
	Action Action
	Author string // the command runner
	// Before and After are the states resolved from the selected coordinate
	// before and after the replacement (nil: no eligible state event).
	Before, After *ResolvedState
	// Newly are the people the change newly confirms (After's confirmed
	// component minus Before's), each with their latest state event even
	// when it is older or predates the invitation: confirmation can
	// activate it.
	Newly []PersonState
	// Own is the runner's latest state event (nil: none): their repository
	// when the command runs outside a checkout.
	Own *ResolvedState
	// EligibleBefore and EligibleAfter are the state candidates of each
	// resolution (graph.EligibleStates), to report what becomes or ceases
	// to be eligible.
	EligibleBefore, EligibleAfter []*ResolvedState
	// Deletions is how many deletion requests the state selection applied.
	Deletions int
	// LocalRefs is the complete local ref map of the checkout running the
	// command (gitstate.LocalRefs shape), nil outside a checkout; Tracking
	// the remote-tracking branches of the remotes that stand for the
	// repository's servers (AlignCheckout).
	LocalRefs map[string]string
	Tracking  []TrackingRef
	// Removed is the pubkey a removal closes.
	Removed string
	Force   bool
	// Floor is the earliest created_at a state event roster publishes may
	// carry: one second after every state candidate the preview used and
	// after the runner's own deletion requests addressing their state.
	// Blocker is a candidate dated at the int64 maximum or so far ahead that
	// ours would be dated MaxFutureSkew after the clock ("" when none): no
	// state event can order after it.
	Floor   int64
	Blocker string
	// Contained, Rewind: Input.Contained and Intent.Rewind; BeforeAt is
	// when Before was published, Now the preview's time (ForceRewinds).
	Contained     map[string]bool
	Rewind        []string
	BeforeAt, Now int64
}

// RefAction is one branch or tag change; an annotated tag and its peeled ^{}
// companion are one action.
type RefAction struct {
	Action string `json:"action"` // add, update, remove, set-default-branch
	Ref    string `json:"ref"`
	From   string `json:"from,omitempty"`
	To     string `json:"to,omitempty"`
}

// EligibilityChange is a state event that becomes or ceases to be a
// candidate of the selected component's state resolution.
type EligibilityChange struct {
	EventID string `json:"event_id"`
	Author  string `json:"author"`
	Change  string `json:"change"` // "becomes-eligible", "ceases-to-be-eligible"
}

// StatePublication is a kind 30618 event the change publishes before its
// announcement: the --force replacement (the runner's complete checkout
// state) or the removal handoff (the pre-removal state, re-signed by the
// remover).
type StatePublication struct {
	Reason    string            `json:"reason"` // "force" or "handoff"
	Head      string            `json:"head"`
	Refs      map[string]string `json:"refs"`
	NotBefore int64             `json:"not_before"`
}

// Publication reasons.
const (
	PublishForce   = "force"
	PublishHandoff = "handoff"
)

// StateComparison is the kind 30618 side of a preview (maintainers.md
// "Confirmation can activate pre-existing state", "Removal hands resolved
// state to a remaining maintainer", "A local repository diverges without
// a state event"). Checked says what was compared, with what; NotChecked
// what was not.
type StateComparison struct {
	Checked    []string       `json:"checked"`
	NotChecked []string       `json:"not_checked"`
	Before     *ResolvedState `json:"before"`
	After      *ResolvedState `json:"after"`
	// Eligibility lists the state events that become or cease to be
	// candidates of the selected component.
	Eligibility []EligibilityChange `json:"eligibility"`
	// Align are the changes that make the command runner's repository match
	// the other view; ForceWould are the inverse changes --force would impose.
	Align      []RefAction `json:"align"`
	ForceWould []RefAction `json:"force_would"`
	// ForceCurrent are the changes a --force makes to the state the
	// repository resolves now, when that is not the other view (a
	// co-maintainer's state newer than the checkout); empty otherwise.
	ForceCurrent []RefAction `json:"force_current"`
	// Publish is the state event published before the announcement (nil:
	// none). With it, After is the state it will supply (no event id yet).
	Publish *StatePublication `json:"publish"`
	// Counted is what Checked covers, counted for the one line of evidence
	// a person reads; Checked stays the full evidence.
	Counted EvidenceCount `json:"-"`
}

// EvidenceCount is a preview's evidence in numbers: the relays asked and
// the Git servers asked for the post-change objects.
type EvidenceCount struct {
	// Relays is how many relays the discovery asked (0: not recorded).
	Relays int
	// Servers is how many Git servers were asked for the post-change
	// objects; ServersSame is true when they were not asked again because
	// the resolved state and the servers stay as they were.
	Servers     int
	ServersSame bool
	// ServersAsked: the object check ran (either way above).
	ServersAsked bool
}

var stateNotChecked = []string{
	"fetchability of every post-change OID from the component's Git servers",
}

// CompareState runs the comparison. A non-nil Refusal means nothing may be
// published.
func CompareState(in StateInput) (StateComparison, *Refusal) {
	c := StateComparison{Before: in.Before, After: in.After, Checked: []string{}, NotChecked: slices.Clone(stateNotChecked),
		Align: []RefAction{}, ForceWould: []RefAction{}, ForceCurrent: []RefAction{}, Eligibility: eligibilityChanges(in.EligibleBefore, in.EligibleAfter)}
	c.Checked = append(c.Checked,
		fmt.Sprintf("the selected component's resolved state before (%s) and after (%s) the change: default branch and complete ref/OID map", describeState(in.Before).String(), describeState(in.After).String()),
		fmt.Sprintf("every state candidate with deletion requests applied (%d candidate(s) before, %d after, %d deletion request(s) read)", len(in.EligibleBefore), len(in.EligibleAfter), in.Deletions))
	switch in.Action {
	case ActRemove:
		if in.Before != nil && in.Before.Author == in.Removed {
			return handoff(c, in)
		}
	case ActLeave:
		if in.Before != nil && in.Before.Author == in.Author && !sameState(in.Before, in.After) {
			return c, leavingStateAuthor(in)
		}
	case ActAdd, ActAccept:
		return compareJoin(c, in)
	}
	if !sameState(in.Before, in.After) {
		return c, stateChangeRefusal(in)
	}
	return c, nil
}

// compareJoin is the add/accept comparison: (a) the selected component's
// state before and after, (b) the latest state of every newly confirmed
// person, (c) on accept, the checkout's complete ref map. A plain
// invitation confirms nobody, so only (a) applies and state never blocks it.
func compareJoin(c StateComparison, in StateInput) (StateComparison, *Refusal) {
	var why string
	var displaced *ResolvedState // a newly confirmed person's state the change would discard
	if !sameState(in.Before, in.After) {
		why = "the post-change resolved state differs from the current one"
	}
	for _, p := range in.Newly {
		c.Checked = append(c.Checked, fmt.Sprintf("%s's latest state event (%s), published before confirmation, against the post-change state", npub(p.Pubkey), describeState(p.State).String()))
		if p.State != nil && !sameState(p.State, in.After) && why == "" {
			why, displaced = npub(p.Pubkey)+"'s existing repository state differs from the joined state", p.State
		}
	}
	if len(in.Newly) == 0 && in.Action == ActAdd {
		c.Checked = append(c.Checked, "nobody becomes confirmed (a plain invitation): no state becomes eligible")
	}
	if in.Action == ActAccept && in.LocalRefs != nil {
		a := AlignCheckout(in.After, in.LocalRefs, in.Tracking)
		c.Checked = append(c.Checked, fmt.Sprintf("this checkout's complete local ref map (%d branch(es) and tag(s), %d through remote-tracking branches%s) against the post-change state", len(a.Refs), len(a.Tracked), trackedText(a)))
		if len(a.Align) > 0 && why == "" {
			why = "your checkout's branches and tags differ from the repository state you would join"
		}
	}
	if why == "" {
		if in.Force {
			return c, refuse("force-not-applicable", "--force only chooses your repository state when a state-only conflict was reported; there is none",
				"rerun without --force")
		}
		return c, nil
	}

	// The two directions, computed against the runner's own repository:
	// their checkout's complete ref map, else the state they stand on.
	other := in.Before // accept: the inviting repository's state
	if in.Action == ActAdd {
		other = in.After
		if sameState(in.Before, in.After) {
			other = displaced
		}
	}
	mine := in.Before
	if in.Action == ActAccept {
		mine = in.Own
	}
	var checkout *CheckoutAlignment
	if in.LocalRefs != nil {
		a := AlignCheckout(other, in.LocalRefs, in.Tracking)
		checkout = &a
		mine = &ResolvedState{Author: in.Author, Head: a.Head, Refs: a.Refs}
	}
	c.Align = orEmpty(diffRefs(refsOf(mine), headOf(mine), refsOf(other), headOf(other)))
	c.ForceWould = orEmpty(diffRefs(refsOf(other), headOf(other), refsOf(mine), headOf(mine)))
	if !in.Force {
		return c, withPublishedState(stateRefusal(in, c, why, checkout), in)
	}
	switch {
	case checkout == nil:
		return c, refuse("force-needs-checkout",
			"--force keeps the complete branches and tags of the checkout running the command, and this command runs outside a checkout",
			"run it inside your checkout of this repository (or pass --repo there), or align your repository and rerun without --force").
			with("align", c.Align).with("force_would", c.ForceWould)
	case in.Blocker != "":
		return c, stateOrderRefusal(in.Blocker)
	}
	var r *Refusal
	if c, r = forceRewinds(c, in, mine); r != nil {
		return c, r
	}
	c.Publish = &StatePublication{Reason: PublishForce, Head: mine.Head, Refs: mine.Refs, NotBefore: in.Floor}
	c.After = &ResolvedState{Author: in.Author, Head: mine.Head, Refs: mine.Refs}
	c.Checked = append(c.Checked, fmt.Sprintf("--force: this checkout's complete ref map (%d ref(s), default branch %s) becomes the post-confirmation state, published as a kind 30618 event signed by you and dated after every candidate before the announcement", len(mine.Refs), dash(mine.Head)))
	return c, nil
}

// handoff is maintainers.md "Removal hands resolved state to a remaining
// maintainer": the removed maintainer authored the event supplying the
// pre-removal state. When a remaining maintainer's equivalent event
// supplies it afterwards there is nothing to do; otherwise the remover
// publishes the same default branch and complete ref map, ordered after
// every candidate, before the removal.
func handoff(c StateComparison, in StateInput) (StateComparison, *Refusal) {
	if sameState(in.Before, in.After) {
		c.Checked = append(c.Checked, fmt.Sprintf("%s authored the state event %s that supplies the resolved state; after the removal %s supplies the same state, so no handoff is needed",
			npub(in.Removed), in.Before.EventID, describeState(in.After).String()))
		return c, nil
	}
	if in.Blocker != "" {
		return c, stateOrderRefusal(in.Blocker)
	}
	c.Publish = &StatePublication{Reason: PublishHandoff, Head: in.Before.Head, Refs: in.Before.Refs, NotBefore: in.Floor}
	c.After = &ResolvedState{Author: in.Author, Head: in.Before.Head, Refs: in.Before.Refs}
	c.Checked = append(c.Checked, fmt.Sprintf("handoff: %s authored the state event %s that supplies the resolved state; the same default branch and %d ref(s), signed by you and dated after every candidate, are published and verified before the removal",
		npub(in.Removed), in.Before.EventID, len(in.Before.Refs)))
	return c, nil
}

func leavingStateAuthor(in StateInput) *Refusal {
	return refuse("state-author-leaving",
		say("you authored the current state (%s): once you leave it is no longer eligible, and the repository would resolve %s instead", in.Before.EventID, describeState(in.After)),
		"ask the lead to publish it under their key with `roster repo state publish`, then leave").
		with("state_event", in.Before.EventID).
		run(Intent{Action: ActLeave}.Suggest().Because("once a remaining maintainer published the same state"))
}

func stateChangeRefusal(in StateInput) *Refusal {
	return refuse("state-change",
		say("cannot %s: it would change the repository's resolved state from %s to %s", in.Action, describeState(in.Before), describeState(in.After)),
		"a membership change never changes the repository state; publish the state you want with `roster repo state publish` first, then rerun").
		with("before", in.Before).with("after", in.After)
}

func stateOrderRefusal(blocker string) *Refusal {
	return refuse("state-order-impossible",
		fmt.Sprintf("the state event %s is dated at the largest time an event can carry, or more than %d minutes after this machine's clock, so no state event can be ordered after it without being dated that far ahead (relays refuse such events, and each pushes every later state towards the largest time)", blocker, MaxFutureSkew/60),
		"ask its author to delete it with a NIP-09 deletion request naming its id, then rerun").
		with("event", blocker)
}

// stateRefusal is the spec's state-only conflict: what to change in the
// repository the runner controls, the commands that do it, and, when the
// command runs in a checkout, what --force would change in the other state
// in plain words (Details "force_words"); forceStateConflict offers --force
// after the alignment commands.
func stateRefusal(in StateInput, c StateComparison, why string, checkout *CheckoutAlignment) *Refusal {
	verb := "add this maintainer"
	if in.Action == ActAccept {
		verb = "accept this maintainer invitation"
	}
	lines := []any{fmt.Sprintf("cannot %s: repository state differs", verb), why, "",
		"to align the repository you control before retrying:"}
	if len(c.Align) == 0 {
		lines = append(lines, "  (your branches and tags already match; only the published state differs)")
	}
	lines = append(lines, indent(renderRefActions(c.Align))...)
	if in.Action == ActAccept && len(c.Align) > 0 {
		lines = append(lines, "", "then rerun the command")
	} else {
		lines = append(lines, "", "publish the aligned state with `roster repo state publish`, then rerun the command")
	}
	r := refuse("state-conflict").with("align", c.Align).with("force_would", c.ForceWould)
	if checkout != nil {
		r.run(alignCommands(c.Align, *checkout)...)
	}
	if len(c.ForceWould) > 0 {
		var behind map[string]string
		if checkout != nil {
			behind = checkout.FastForward
		}
		words := ForceWords(c.ForceWould, behind)
		r.with("force_words", words)
		lines = append(lines, "", "or keep your current branches and tags and replace the other state:", words)
	}
	if checkout == nil {
		lines = append(lines, "--force needs your checkout: run it there")
	}
	r.addLines(lines...)
	return r
}

// alignCommands are the Git commands that carry out align in the checkout:
// a fast-forward for each branch behind a remote-tracking branch at the
// state's commit (`git merge --ff-only origin/main` for the branch checked
// out, `git branch -f dev origin/dev` for another), and `git fetch`
// of the repository's servers when a commit the state names is on no
// remote-tracking branch yet.
func alignCommands(align []RefAction, a CheckoutAlignment) []suggest.Command {
	var cmds []suggest.Command
	fetch := false
	for _, act := range align {
		via, ff := a.FastForward[act.Ref]
		short := strings.TrimPrefix(act.Ref, "refs/heads/")
		switch {
		case ff && act.Ref == a.Checked:
			cmds = append(cmds, suggest.Git("merge", "--ff-only", via).Because(fmt.Sprintf("fast-forward %s to the repository state", short)))
		case ff:
			cmds = append(cmds, suggest.Git("branch", "-f", short, via).Because(fmt.Sprintf("fast-forward %s to the repository state (it is behind %s)", short, via)))
		case (act.Action == "add" || act.Action == "update") && !a.HasTracked(act.To):
			fetch = true // the state's commit is on no remote-tracking branch yet
		}
	}
	if fetch && len(a.Remotes) > 0 {
		cmds = append(cmds, suggest.Git("fetch", a.Remotes[0]).Because("fetch the repository's branches and tags, then rerun to see what is left to align"))
	}
	return cmds
}

// ForceWords says in words what --force would change in the other
// repository state: "--force would remove branch dev from the repository
// state". behind are the branches the checkout has behind the state
// (CheckoutAlignment.FastForward): replacing those rewinds them.
func ForceWords(as []RefAction, behind map[string]string) string {
	var parts []string
	removals := true
	for _, a := range as {
		kind, name := "branch", strings.TrimPrefix(a.Ref, "refs/heads/")
		if strings.HasPrefix(a.Ref, "refs/tags/") {
			kind, name = "tag", strings.TrimPrefix(a.Ref, "refs/tags/")
		}
		switch a.Action {
		case "remove":
			parts = append(parts, fmt.Sprintf("remove %s %s", kind, name))
			continue
		case "add":
			parts = append(parts, fmt.Sprintf("add %s %s at %s", kind, name, a.To))
		case "update":
			verb := "move"
			if _, ok := behind[a.Ref]; ok {
				verb = "rewind"
			}
			parts = append(parts, fmt.Sprintf("%s %s %s from %s to %s", verb, kind, name, a.From, a.To))
		case "set-default-branch":
			parts = append(parts, "set the default branch to "+strings.TrimPrefix(a.To, "refs/heads/"))
		}
		removals = false
	}
	where := " in the repository state"
	if removals {
		where = " from the repository state"
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return "--force would " + parts[0] + where
	}
	return "--force would " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1] + where
}

func eligibilityChanges(before, after []*ResolvedState) []EligibilityChange {
	out := []EligibilityChange{}
	has := func(set []*ResolvedState, id string) bool {
		return slices.ContainsFunc(set, func(s *ResolvedState) bool { return s.EventID == id })
	}
	for _, s := range after {
		if !has(before, s.EventID) {
			out = append(out, EligibilityChange{EventID: s.EventID, Author: npub(s.Author), Change: "becomes-eligible"})
		}
	}
	for _, s := range before {
		if !has(after, s.EventID) {
			out = append(out, EligibilityChange{EventID: s.EventID, Author: npub(s.Author), Change: "ceases-to-be-eligible"})
		}
	}
	return out
}

func describeState(s *ResolvedState) suggest.Block {
	switch {
	case s == nil:
		return suggest.Text("no state")
	case s.EventID == "":
		return say("a new state by %s with %d ref(s)", who(s.Author), len(s.Refs))
	}
	return say("%s by %s, %d ref(s)", s.EventID, who(s.Author), len(s.Refs))
}

// trackedText names the branches counted through remote-tracking branches
// (": refs/heads/dev (origin/dev), ..."), "" when there are none.
func trackedText(a CheckoutAlignment) string {
	if len(a.Tracked) == 0 {
		return ""
	}
	parts := make([]string, len(a.Tracked))
	for i, k := range a.Tracked {
		parts[i] = fmt.Sprintf("%s (%s)", k, a.TrackedBy[k])
	}
	return ": " + strings.Join(parts, ", ")
}

func orEmpty(as []RefAction) []RefAction {
	if as == nil {
		return []RefAction{}
	}
	return as
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func renderRefActions(as []RefAction) []string {
	var out []string
	for _, a := range as {
		kind := "branch"
		if strings.HasPrefix(a.Ref, "refs/tags/") {
			kind = "tag"
		}
		switch a.Action {
		case "add":
			out = append(out, fmt.Sprintf("add %-6s %s at %s", kind, a.Ref, a.To))
		case "remove":
			out = append(out, fmt.Sprintf("remove %-6s %s at %s", kind, a.Ref, a.From))
		case "update":
			out = append(out, fmt.Sprintf("update %-6s %s from %s to %s", kind, a.Ref, a.From, a.To))
		case "set-default-branch":
			if a.From == "" {
				out = append(out, fmt.Sprintf("set default branch to %s", a.To))
				continue
			}
			out = append(out, fmt.Sprintf("set default branch from %s to %s", a.From, a.To))
		}
	}
	return out
}

func refsOf(s *ResolvedState) map[string]string {
	if s == nil {
		return nil
	}
	return s.Refs
}

func headOf(s *ResolvedState) string {
	if s == nil {
		return ""
	}
	return s.Head
}

// SameState reports whether two states carry the same default branch and
// complete ref/OID map (the event ids and authors may differ).
func SameState(a, b *ResolvedState) bool { return sameState(a, b) }

func sameState(a, b *ResolvedState) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Head == b.Head && sameRefs(a.Refs, b.Refs)
}

func sameRefs(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// diffRefs lists what turns from into to; a peeled "^{}" entry folds into its
// tag. A tag's action carries the tag's own object (what `git update-ref`,
// `git fetch` and the state's tag name), not its peeled commit; it changes
// when either differs.
func diffRefs(from map[string]string, fromHead string, to map[string]string, toHead string) []RefAction {
	var out []RefAction
	names := map[string]bool{}
	for k := range from {
		names[strings.TrimSuffix(k, "^{}")] = true
	}
	for k := range to {
		names[strings.TrimSuffix(k, "^{}")] = true
	}
	sorted := make([]string, 0, len(names))
	for k := range names {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		f, fok := from[k]
		t, tok := to[k]
		if !fok && !tok {
			// Only a peeled entry without its tag: read it as the ref.
			f, fok = from[k+"^{}"]
			t, tok = to[k+"^{}"]
		}
		switch {
		case !fok && tok:
			out = append(out, RefAction{Action: "add", Ref: k, To: t})
		case fok && !tok:
			out = append(out, RefAction{Action: "remove", Ref: k, From: f})
		case f != t || from[k+"^{}"] != to[k+"^{}"]:
			out = append(out, RefAction{Action: "update", Ref: k, From: f, To: t})
		}
	}
	if fromHead != toHead && toHead != "" && fromHead != "" {
		out = append(out, RefAction{Action: "set-default-branch", From: fromHead, To: toHead})
	}
	return out
}
