package groups

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// Moderation kinds (nip-29.md "Group state -- or moderation"); put-user and
// remove-user are KindPutUser and KindRemoveUser.
const (
	KindEditMetadata = 9002
	KindDeleteEvent  = 9005
	KindCreateGroup  = 9007
	KindDeleteGroup  = 9008
	KindCreateInvite = 9009
)

// Action is one moderation command.
type Action string

// The moderation actions, by the command that runs them.
const (
	ActCreate      Action = "create"       // 9007, then 9002 when metadata or a parent is given
	ActEdit        Action = "edit"         // 9002
	ActPutUser     Action = "add"          // 9000
	ActRemoveUser  Action = "remove"       // 9001
	ActInvite      Action = "invite"       // 9009
	ActDeleteEvent Action = "delete-event" // 9005
	ActDeleteGroup Action = "delete"       // 9008
)

// Pipeline error codes of the moderation commands (beside pipeline's
// OK-prefix codes and the join/leave codes CodeNotFound, CodeIncomplete,
// CodeAmbiguous and CodeNotLive).
const (
	CodeGroupExists     = "group-exists"       // create: the relay already has state for the id
	CodeNeedsHost       = "group-relay-needed" // create: several relays asked and none named
	CodeParentNotAdmin  = "parent-not-admin"   // --parent: the parent is missing, or the signer is not in its 39001
	CodeEventNotFound   = "event-not-found"    // delete-event: the relay does not serve the event
	CodeEventNotInGroup = "event-not-in-group" // delete-event: the event has no h tag for this group
	CodeMetadataRefused = "create-metadata-refused"
	// CodeCreatedPartly: create's 9007 was accepted and its 9002 was
	// rate-limited or not answered: the group exists, its metadata is
	// kept in the journal.
	CodeCreatedPartly    = "group-created-partly"
	CodeModerationUnsure = "unverified" // accepted, but the relay-signed state does not show it
)

// MetadataEdit is what a create or edit changes; nil fields stay as they
// are. Parent "" (non-nil) makes the group a root.
type MetadataEdit struct {
	Name, About, Picture, Banner        *string
	Private, Closed, Restricted, Hidden *bool
	Parent                              *string
}

func (m MetadataEdit) empty() bool {
	return m.Name == nil && m.About == nil && m.Picture == nil && m.Banner == nil && m.Private == nil &&
		m.Closed == nil && m.Restricted == nil && m.Hidden == nil && m.Parent == nil
}

// ModerationInput is one moderation command against the relay hosting a
// group.
type ModerationInput struct {
	Relays  pipeline.Relays
	Publish pipeline.Publish
	// Sign signs an event as Me; nil with DryRun (nothing is signed).
	Sign func(context.Context, *nostr.Event) error
	Me   string
	Ask  []string
	Host string
	ID   string
	Now  func() nostr.Timestamp

	Action Action
	// Target and Roles: add (roles replace the person's roles) and remove.
	Target string
	Roles  []string
	// Edit: create and edit.
	Edit MetadataEdit
	// Code: invite. EventID: delete-event. Reason: every event's content.
	Code    string
	EventID string
	Reason  string
	// DryRun previews and sends nothing.
	DryRun bool
	// Journal keeps the signed events from before the first is sent until
	// they are verified (nil: none); Command is the command that made the
	// write, as words after "roster", for a rerun.
	Journal *journal.Dir
	Command []string
}

// Step is one event the command sends (create sends two).
type Step struct {
	Kind int    `json:"kind"`
	Name string `json:"name"`
	// Event is the event as sent (signed), or as it would be (unsigned,
	// with --dry-run).
	Event *nostr.Event `json:"event"`
	Sent  bool         `json:"sent"`
	// Accepted and Message are the relay's OK answer; Explanation says it
	// in words.
	Accepted    bool   `json:"accepted"`
	Message     string `json:"message,omitempty"`
	Explanation string `json:"explanation,omitempty"`
	// Unconfirmed: sent and not answered (it may be stored); Retry: not
	// accepted, and not refused for good (rate-limited, or unanswered).
	Unconfirmed bool `json:"-"`
	Retry       bool `json:"-"`
}

// ModerationResult is what a moderation command did, or would do.
type ModerationResult struct {
	Action Action `json:"action"`
	Relay  string `json:"relay"`
	ID     string `json:"id"`
	// SignerRoles are the signer's roles in the relay-signed 39001 (empty
	// when it does not list them); RelayRoles the roles the relay's 39003
	// advertises. roster does not predict what they allow: the relay does.
	SignerRoles []string `json:"signer_roles"`
	RelayRoles  []Role   `json:"relay_roles"`
	// Preview is the consequence, one sentence a line.
	Preview []string `json:"preview"`
	// NothingToChange: the wanted state is the current one; nothing sent.
	NothingToChange bool   `json:"nothing_to_change"`
	DryRun          bool   `json:"dry_run"`
	Steps           []Step `json:"steps"`
	// Verified says what the relay-signed state shows after the command;
	// Note where it differs from what was asked without contradicting it.
	Verified string `json:"verified,omitempty"`
	Note     string `json:"note,omitempty"`
	// Before and After: the group as the relay signed it (After after the
	// command; nil with --dry-run). Target is the person's membership
	// (add, remove).
	Before       *State      `json:"before,omitempty"`
	After        *State      `json:"after,omitempty"`
	TargetBefore *Membership `json:"target_before,omitempty"`
	TargetAfter  *Membership `json:"target_after,omitempty"`
	// Naddr is the group's address; with a code, the one to share.
	Naddr string `json:"naddr,omitempty"`
	// Journal is the write's id in the journal while it is unfinished.
	Journal string `json:"-"`
}

// hostRead is the hosting relay's answer to the command's one read.
type hostRead struct {
	RelayRead
	// info is the relay's NIP-11 answer, reused by the verification.
	info   pipeline.RelaySelf
	Parent *State
	Target *Membership
	Event  *nostr.Event
	// Recent are the group's recent events (for previous references).
	Recent []*nostr.Event
	// Mods are the group's moderation events and join and leave requests
	// the relay served (at most maxRecent, the newest): what the journal's
	// recheck compares.
	Mods []*nostr.Event
	// served is everything the relay returned.
	served []*nostr.Event
}

// maxRecent is how many of the group's recent events are read for
// `previous` references (nip-29.md: "any event in the last 50 events").
const maxRecent = 50

// readSpec is what a read of the hosting relay asks for besides the
// group's state: the person's 9000/9001, the event to delete, the parent's
// state, the recent events, the moderation events and events by id; selves
// are NIP-11 answers already read.
type readSpec struct {
	target, eventID, parent string
	recent, mods            bool
	ids                     []string
	selves                  []pipeline.RelaySelf
}

// modKinds are the moderation kinds (nip-29.md: 9000-9020) and the join
// and leave requests.
var modKinds = func() []int {
	var k []int
	for i := 9000; i <= 9022; i++ {
		k = append(k, i)
	}
	return k
}()

// readHost reads, in one request per relay (readWith, as every read of a
// group), the group's state and what spec asks for.
func readHost(ctx context.Context, r pipeline.Relays, relays []string, id string, spec readSpec) ([]hostRead, bool) {
	infos := spec.selves
	if len(infos) != len(relays) {
		infos = pipeline.RelaySelves(ctx, r, relays)
	}
	var extra []nostr.Filter
	if spec.recent {
		extra = append(extra, nostr.Filter{Tags: nostr.TagMap{"h": {id}}, Limit: maxRecent})
	}
	if spec.mods {
		extra = append(extra, nostr.Filter{Kinds: modKinds, Tags: nostr.TagMap{"h": {id}}, Limit: maxRecent})
	}
	if spec.eventID != "" {
		extra = append(extra, nostr.Filter{IDs: []string{spec.eventID}})
	}
	if spec.parent != "" {
		extra = append(extra, nostr.Filter{Kinds: StateKinds, Tags: nostr.TagMap{"d": {spec.parent}}})
	}
	if len(spec.ids) > 0 {
		extra = append(extra, nostr.Filter{IDs: spec.ids})
	}
	rd, served := readWith(ctx, r, relays, infos, id, spec.target, extra...)
	var out []hostRead
	for i, rr := range rd.Relays {
		h := hostRead{RelayRead: rr, Target: rr.Me, served: served[i]}
		if i < len(infos) {
			h.info = infos[i]
		}
		h.Me = nil
		if spec.parent != "" {
			p := Build(spec.parent, rr.Self, served[i])
			h.Parent = &p
		}
		for _, e := range served[i] {
			if !e.CheckID() {
				continue
			}
			if ok, err := e.CheckSignature(); err != nil || !ok {
				continue
			}
			if spec.eventID != "" && e.ID == spec.eventID {
				h.Event = e
			}
			if tagValue(e.Tags, "h") == id {
				if spec.recent {
					h.Recent = append(h.Recent, e)
				}
				if spec.mods && slices.Contains(modKinds, e.Kind) {
					h.Mods = append(h.Mods, e)
				}
			}
		}
		out = append(out, h)
	}
	return out, rd.Complete
}

// previous returns up to three timeline references (nip-29.md "Timeline
// references"): the first 8 characters of the newest of the group's
// events seen on the relay, excluding the signer's own.
func previous(recent []*nostr.Event, me string) []string {
	evs := slices.Clone(recent)
	sort.Slice(evs, func(a, b int) bool { return evs[a].CreatedAt > evs[b].CreatedAt })
	var out []string
	for _, e := range evs {
		if e.PubKey == me || len(e.ID) < 8 || slices.Contains(out, e.ID[:8]) {
			continue
		}
		out = append(out, e.ID[:8])
		if len(out) == 3 {
			break
		}
	}
	return out
}

// Moderate runs one moderation command (nip-29.md "Group state -- or
// moderation"): it reads the group on the relay hosting it, previews the
// consequence with the signer's roles (39001) and the relay's advertised
// roles (39003), and unless DryRun signs the event(s) with the group's `h`
// tag (and `previous` references), sends them to that relay, reads its OK
// and verifies against what the relay signs: for add and remove the latest
// 9000/9001 naming the person (and the 39002 where present), for metadata
// the new 39000, for a deleted event its absence, for a deleted group its
// 39000.
func Moderate(ctx context.Context, in ModerationInput) (ModerationResult, error) {
	p, err := Prepare(ctx, in)
	if err != nil || p.Result.NothingToChange || in.DryRun {
		return p.Result, err
	}
	return p.Send(ctx)
}

// Prepared is a moderation command read and previewed, not yet signed:
// Result holds the preview, Send signs and sends it. A command that asks
// before sending (group delete) shows Result, then calls Send: the group
// is read once.
type Prepared struct {
	Result ModerationResult
	// Command, when set, replaces the input's Command in the journal
	// (the caller knows the hosting relay once the group is read).
	Command []string
	in      ModerationInput
	host    hostRead
	parent  string
}

// Prepare reads the group on the relay hosting it and previews the
// command (Moderate without the sending).
func Prepare(ctx context.Context, in ModerationInput) (*Prepared, error) {
	res, host, parent, err := prepare(ctx, in)
	return &Prepared{Result: res, in: in, host: host, parent: parent}, err
}

func prepare(ctx context.Context, in ModerationInput) (ModerationResult, hostRead, string, error) {
	var host hostRead
	res := ModerationResult{Action: in.Action, ID: in.ID, DryRun: in.DryRun, SignerRoles: []string{}, RelayRoles: []Role{}, Steps: []Step{}, Preview: []string{}}
	parent := ""
	if in.Edit.Parent != nil {
		parent = *in.Edit.Parent
	}
	ask := in.Ask
	if in.Host != "" {
		ask = []string{in.Host}
	}
	if in.Action == ActCreate && len(ask) != 1 {
		return res, host, parent, &pipeline.Error{Class: pipeline.Usage, Code: CodeNeedsHost, Details: map[string]any{"id": in.ID, "relays": ask},
			Msg: fmt.Sprintf("a group is created on one relay, and %d are configured; name it as <relay>'%s", len(ask), in.ID)}
	}
	reads, complete := readHost(ctx, in.Relays, ask, in.ID, readSpec{target: in.Target, eventID: in.EventID, parent: parent, recent: true, mods: true})
	if in.Action == ActCreate {
		host = reads[0]
		if host.Status != "ok" || !complete {
			return res, host, parent, &pipeline.Error{Class: pipeline.Incomplete, Code: CodeIncomplete, Details: map[string]any{"relay": host.URL, "id": in.ID},
				Msg: fmt.Sprintf("%s did not answer (%s), so roster cannot tell whether group %s exists there; nothing was sent", host.URL, pipeline.Outcome(host.Status, host.Reason), in.ID)}
		}
		if host.Error != "" {
			return res, host, parent, &pipeline.Error{Class: pipeline.Incomplete, Code: CodeIncomplete, Details: map[string]any{"relay": host.URL, "id": in.ID},
				Msg: fmt.Sprintf("%s: %s; nothing was sent", host.URL, host.Error)}
		}
		if host.Found {
			state := "exists"
			if !host.Live {
				state = "existed (it is archived or deleted)"
			}
			return res, host, parent, &pipeline.Error{Class: pipeline.Refused, Code: CodeGroupExists, Details: map[string]any{"relay": host.URL, "id": in.ID},
				Next: []suggest.Command{suggest.Roster("group", "show", host.URL+"'"+in.ID)},
				Msg:  fmt.Sprintf("group %s %s on %s, so roster sends no create-group", in.ID, state, host.URL)}
		}
	} else {
		rrs := make([]RelayRead, len(reads))
		for i, r := range reads {
			rrs[i] = r.RelayRead
		}
		rr, err := hostOf(ReadResult{Relays: rrs, Complete: complete}, in.ID, string(in.Action), in.Command)
		if err != nil {
			return res, host, parent, err
		}
		for _, r := range reads {
			if r.URL == rr.URL {
				host = r
			}
		}
		if !host.Live {
			return res, host, parent, &pipeline.Error{Class: pipeline.Refused, Code: CodeNotLive, Details: map[string]any{"relay": host.URL, "id": in.ID},
				Msg: fmt.Sprintf("group %s on %s is archived or deleted, so roster sends no %s", in.ID, host.URL, in.Action)}
		}
		res.Before = host.Group
		res.SignerRoles = append(res.SignerRoles, host.Group.RolesOf(in.Me)...)
		res.RelayRoles = append(res.RelayRoles, host.Group.Roles...)
	}
	res.Relay = host.URL
	res.Naddr, _ = Naddr(in.ID, host.URL, host.Self, "")
	if parent != "" {
		if err := checkParent(host, in.Me, parent, in.ID); err != nil {
			return res, host, parent, err
		}
	}
	if err := plan(&res, in, host); err != nil {
		return res, host, parent, err
	}
	return res, host, parent, nil
}

// Send signs every step, keeps them in the journal, sends them in order to
// the hosting relay and verifies the command by re-reading it.
func (p *Prepared) Send(ctx context.Context) (ModerationResult, error) {
	res, in, host, parent := p.Result, p.in, p.host, p.parent
	res.DryRun = false
	if p.Command != nil {
		in.Command = p.Command
	}
	// Every step is signed before the first is sent, so the journal holds
	// the whole write before any relay is sent a part of it.
	for i := range res.Steps {
		if err := in.Sign(ctx, res.Steps[i].Event); err != nil {
			return res, pipeline.Signed(err)
		}
	}
	kept, err := track.Begin(in.Journal, moderationEntries(in, host, res.Steps))
	if err != nil {
		return res, journalErr(err, suggest.Roster(in.Command...))
	}
	res.Journal = kept.ID
	err = send(ctx, &res, in, host)
	if err == nil {
		again, complete := readHost(ctx, in.Relays, []string{host.URL}, in.ID, readSpec{target: in.Target, eventID: in.EventID, parent: parent, selves: []pipeline.RelaySelf{host.info}})
		err = verify(&res, in, again, complete)
	}
	return res, endModeration(in.Journal, &res, err)
}

// send publishes the signed steps in order to the hosting relay and reads
// each OK; the first one not accepted stops the write.
func send(ctx context.Context, res *ModerationResult, in ModerationInput, host hostRead) error {
	for i := range res.Steps {
		st := &res.Steps[i]
		rep := in.Publish(ctx, host.URL, st.Event)
		st.Sent, st.Accepted, st.Message = true, rep.OK, rep.Message
		if rep.OK && in.Journal != nil && res.Journal != "" {
			_ = in.Journal.Acked(res.Journal, i, host.URL)
		}
		what := fmt.Sprintf("the %s (kind %d) for group %s", st.Name, st.Kind, in.ID)
		details := map[string]any{"relay": host.URL, "id": in.ID, "event_id": st.Event.ID, "kind": st.Kind}
		if rej := pipeline.Rejection(rep, host.URL, what, details, []suggest.Command{suggest.Roster("group", "show", host.URL+"'"+in.ID)}); rej != nil {
			st.Explanation = rej.Msg
			st.Unconfirmed = rej.Class == pipeline.Unverified
			st.Retry = rej.Class != pipeline.Refused
			if i > 0 && rej.Class == pipeline.Refused {
				rej.Code = CodeMetadataRefused
				rej.Msg = fmt.Sprintf("group %s was created on %s, but %s; set it with roster group edit", in.ID, host.URL, rej.Msg)
				rej.Next = []suggest.Command{suggest.Roster(editInstead(in.Command, host.URL+"'"+in.ID)...).Because("set the metadata again")}
			} else if i > 0 {
				// The group exists: a rate-limited or unanswered 9002 is
				// not a failure of the create, and its signed event is kept.
				first := res.Steps[0].Event
				rej.Class, rej.Code = pipeline.Unverified, CodeCreatedPartly
				rej.Details["stored"] = first.ID
				said := "no answer"
				if rep.Message != "" {
					said = rep.Message
				}
				how := "did not answer the edit-metadata (kind 9002 %s: %s), so it may not have the group's metadata"
				if rej.Code == pipeline.CodeRateLimited {
					how = "rate-limited the edit-metadata (kind 9002 %s: %s), so the group has no metadata yet"
				}
				rej.Msg = fmt.Sprintf("group %s WAS created on %s: it accepted the create-group (kind 9007 %s); but it "+how+". The signed edit-metadata is kept: roster pending resume sends it again",
					in.ID, host.URL, first.ID, st.Event.ID, said)
				rej.Next = nil
			}
			return rej
		}
		st.Explanation = fmt.Sprintf("%s accepted %s", host.URL, what)
		if rep.Message != "" {
			st.Explanation += fmt.Sprintf(" (it said: %s)", rep.Message)
		}
	}
	return nil
}

// checkParent: nip-29.md "Relays MUST reject any kind:9002 carrying
// ["parent", "X"] unless the event author is also an admin of X (per X's
// kind:39001)"; roster checks it before signing, by the parent's 39001.
func checkParent(host hostRead, me, parent, id string) error {
	p := host.Parent
	details := map[string]any{"relay": host.URL, "id": id, "parent": parent}
	switch {
	case p == nil || !p.Live():
		return &pipeline.Error{Class: pipeline.Refused, Code: CodeParentNotAdmin, Details: details,
			Msg: fmt.Sprintf("parent group %s has no live relay-signed state on %s; nothing was sent", parent, host.URL)}
	case p.RolesOf(me) == nil:
		return &pipeline.Error{Class: pipeline.Refused, Code: CodeParentNotAdmin, Details: details,
			Next: []suggest.Command{suggest.Roster("group", "show", host.URL+"'"+parent)},
			Msg:  fmt.Sprintf("you are not an admin of parent group %s on %s (its kind 39001 does not list you), and NIP-29 lets only its admins make it a parent; nothing was sent", parent, host.URL)}
	}
	return nil
}

// event builds one unsigned moderation event.
func (in ModerationInput) event(kind int, prev []string, tags ...nostr.Tag) *nostr.Event {
	t := nostr.Tags{{"h", in.ID}}
	t = append(t, tags...)
	if len(prev) > 0 {
		t = append(t, append(nostr.Tag{"previous"}, prev...))
	}
	return &nostr.Event{Kind: kind, CreatedAt: in.Now(), Content: in.Reason, PubKey: in.Me, Tags: t}
}

// after dates a 9000/9001 after the person's latest one, so that it is the
// one that decides (nip-29.md "Checking your own membership": the latest
// of either kind).
func after(t *Membership, e *nostr.Event) *nostr.Event {
	if t != nil && t.EventID != "" && t.Basis != "members-list" && e.CreatedAt <= t.CreatedAt {
		e.CreatedAt = t.CreatedAt + 1
	}
	return e
}

// stepNames are nip-29.md's names of the moderation kinds (its table).
var stepNames = map[int]string{KindPutUser: "put-user", KindRemoveUser: "remove-user", KindEditMetadata: "edit-metadata",
	KindDeleteEvent: "delete-event", KindCreateGroup: "create-group", KindDeleteGroup: "delete-group", KindCreateInvite: "create-invite"}

// StepName is nip-29.md's name of moderation kind ("put-user"); "" for
// another kind. The reference relay names kinds with it too.
func StepName(kind int) string { return stepNames[kind] }

func (r *ModerationResult) step(e *nostr.Event) {
	r.Steps = append(r.Steps, Step{Kind: e.Kind, Name: stepNames[e.Kind], Event: e})
}

func who(pubkey string) string { return graph.Npub(pubkey) }

func rolesWords(roles []string) string {
	if len(roles) == 0 {
		return "no role"
	}
	return "role " + strings.Join(roles, ", ")
}

// plan fills the preview and the steps.
func plan(res *ModerationResult, in ModerationInput, host hostRead) error {
	prev := previous(host.Recent, in.Me)
	g := host.Group
	switch in.Action {
	case ActCreate:
		res.Preview = append(res.Preview, fmt.Sprintf("creates group %s on %s (kind 9007); the reference relay makes its creator an owner, another relay decides for itself", in.ID, host.URL))
		res.step(in.event(KindCreateGroup, nil))
		if !in.Edit.empty() {
			tags, changes := metadataTags(nil, in.Edit)
			res.Preview = append(res.Preview, "then sets its metadata (kind 9002): "+strings.Join(changes, "; "))
			res.step(in.event(KindEditMetadata, nil, tags...))
		}
	case ActEdit:
		var cur []nostr.Tag
		for _, e := range g.Events {
			if e.Kind == KindMetadata {
				cur = e.Tags
			}
		}
		tags, changes := metadataTags(cur, in.Edit)
		if len(changes) == 0 {
			res.NothingToChange = true
			res.Preview = append(res.Preview, "nothing to change: the relay-signed metadata (kind 39000) already says so")
			return nil
		}
		res.Preview = append(res.Preview, "edits the metadata (kind 9002), keeping every other field, the parent and all child tags: "+strings.Join(changes, "; "))
		res.step(in.event(KindEditMetadata, prev, tags...))
	case ActPutUser:
		roles := sortedRoles(in.Roles)
		t := host.Target
		cur := g.RolesOf(in.Target)
		switch {
		case t.Member && slices.Equal(sortedRoles(cur), roles):
			res.NothingToChange = true
			res.Preview = append(res.Preview, fmt.Sprintf("nothing to change: %s is a member with %s", who(in.Target), rolesWords(cur)))
			return nil
		case t.Member:
			res.Preview = append(res.Preview, fmt.Sprintf("changes %s's roles from %s to %s (kind 9000)", who(in.Target), rolesWords(cur), rolesWords(roles)))
		default:
			res.Preview = append(res.Preview, fmt.Sprintf("adds %s as a member with %s (kind 9000)", who(in.Target), rolesWords(roles)))
		}
		res.TargetBefore = t
		res.step(after(t, in.event(KindPutUser, prev, append(nostr.Tag{"p", in.Target}, roles...))))
	case ActRemoveUser:
		t := host.Target
		res.TargetBefore = t
		if !t.Member {
			res.NothingToChange = true
			res.Preview = append(res.Preview, fmt.Sprintf("nothing to change: the relay's record does not make %s a member", who(in.Target)))
			return nil
		}
		res.Preview = append(res.Preview, fmt.Sprintf("removes %s (%s) from the group (kind 9001)", who(in.Target), rolesWords(g.RolesOf(in.Target))))
		res.step(after(t, in.event(KindRemoveUser, prev, nostr.Tag{"p", in.Target})))
	case ActInvite:
		res.Naddr, _ = Naddr(in.ID, host.URL, host.Self, in.Code)
		res.Preview = append(res.Preview, fmt.Sprintf("creates invite code %s (kind 9009): a join request carrying it is admitted even if the group is closed; how often a code may be used is the relay's policy", in.Code))
		res.step(in.event(KindCreateInvite, prev, nostr.Tag{"code", in.Code}))
	case ActDeleteEvent:
		e := host.Event
		details := map[string]any{"relay": host.URL, "id": in.ID, "event_id": in.EventID}
		if e == nil {
			return &pipeline.Error{Class: pipeline.Refused, Code: CodeEventNotFound, Details: details,
				Msg: fmt.Sprintf("%s does not serve event %s, so there is nothing to delete; nothing was sent", host.URL, in.EventID)}
		}
		if tagValue(e.Tags, "h") != in.ID {
			return &pipeline.Error{Class: pipeline.Refused, Code: CodeEventNotInGroup, Details: details,
				Msg: fmt.Sprintf("event %s is not in group %s (its h tag is %q); nothing was sent", in.EventID, in.ID, tagValue(e.Tags, "h"))}
		}
		res.Preview = append(res.Preview, fmt.Sprintf("deletes event %s (kind %d by %s, %s) from the group (kind 9005)", e.ID, e.Kind, who(e.PubKey), quote(e.Content)))
		res.step(in.event(KindDeleteEvent, prev, nostr.Tag{"e", e.ID}))
	case ActDeleteGroup:
		n := len(MembersOf(*g))
		line := fmt.Sprintf("deletes group %s on %s with its %d listed member(s) (kind 9008)", in.ID, host.URL, n)
		if g.Metadata != nil && len(g.Metadata.Children) > 0 {
			line += fmt.Sprintf("; its subgroups %s become roots", strings.Join(g.Metadata.Children, ", "))
		}
		res.Preview = append(res.Preview, line)
		res.step(in.event(KindDeleteGroup, prev))
	default:
		return fmt.Errorf("unknown moderation action %q", in.Action)
	}
	return nil
}

func quote(s string) string {
	const max = 60
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	return fmt.Sprintf("%q", s)
}

func sortedRoles(in []string) []string {
	out := []string{}
	for _, r := range in {
		if r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}

// metadataTags is the 9002's tags: every tag of the current 39000 (cur;
// without d), with only the fields edit names changed, the parent replaced
// when edit names one and the child tags kept in order; and each change in
// words.
func metadataTags(cur nostr.Tags, edit MetadataEdit) (nostr.Tags, []string) {
	var out nostr.Tags
	var changes []string
	for _, t := range cur {
		if len(t) == 0 || t[0] == "d" || t[0] == "deleted" {
			continue
		}
		out = append(out, append(nostr.Tag(nil), t...))
	}
	text := func(name string, v *string) {
		if v == nil {
			return
		}
		old, i := "", slices.IndexFunc(out, func(t nostr.Tag) bool { return len(t) > 0 && t[0] == name })
		if i >= 0 && len(out[i]) > 1 {
			old = out[i][1]
		}
		if i >= 0 && old == *v {
			return
		}
		if i < 0 && *v == "" {
			return
		}
		out = slices.DeleteFunc(out, func(t nostr.Tag) bool { return len(t) > 0 && t[0] == name })
		switch {
		case *v != "" && i < 0:
			out = append(out, nostr.Tag{name, *v})
			changes = append(changes, fmt.Sprintf("%s %q", name, *v))
		case *v != "":
			out = append(out, nostr.Tag{name, *v})
			changes = append(changes, fmt.Sprintf("%s %q (was %q)", name, *v, old))
		default:
			changes = append(changes, fmt.Sprintf("%s removed (was %q)", name, old))
		}
	}
	flag := func(name string, v *bool) {
		if v == nil {
			return
		}
		has := slices.ContainsFunc(out, func(t nostr.Tag) bool { return len(t) > 0 && t[0] == name })
		if has == *v {
			return
		}
		if *v {
			out = append(out, nostr.Tag{name})
			changes = append(changes, name)
		} else {
			out = slices.DeleteFunc(out, func(t nostr.Tag) bool { return len(t) > 0 && t[0] == name })
			changes = append(changes, "not "+name)
		}
	}
	text("name", edit.Name)
	text("about", edit.About)
	text("picture", edit.Picture)
	text("banner", edit.Banner)
	flag("private", edit.Private)
	flag("closed", edit.Closed)
	flag("restricted", edit.Restricted)
	flag("hidden", edit.Hidden)
	if edit.Parent != nil {
		old := ""
		for _, t := range out {
			if len(t) > 1 && t[0] == "parent" {
				old = t[1]
			}
		}
		if old != *edit.Parent {
			out = slices.DeleteFunc(out, func(t nostr.Tag) bool { return len(t) > 0 && t[0] == "parent" })
			if *edit.Parent != "" {
				out = append(out, nostr.Tag{"parent", *edit.Parent})
				changes = append(changes, fmt.Sprintf("parent %s (a subgroup of it)", *edit.Parent))
			} else {
				changes = append(changes, fmt.Sprintf("no parent (a root group; was under %s)", old))
			}
		}
	}
	return out, changes
}

// verify checks the command against reads, the relay re-read after it
// (with the NIP-11 answer of the first read).
func verify(res *ModerationResult, in ModerationInput, reads []hostRead, complete bool) error {
	relay := res.Relay
	show := suggest.Roster("group", "show", relay+"'"+in.ID)
	details := map[string]any{"relay": relay, "id": in.ID}
	last := res.Steps[len(res.Steps)-1]
	details["event_id"] = last.Event.ID
	unverified := func(format string, args ...any) error {
		return &pipeline.Error{Class: pipeline.Unverified, Code: CodeModerationUnsure, Details: details, Next: []suggest.Command{show},
			Msg: fmt.Sprintf("%s accepted the %s, but ", relay, last.Name) + fmt.Sprintf(format, args...)}
	}
	if !complete || len(reads) != 1 || reads[0].Status != "ok" {
		return unverified("re-reading the group there did not complete")
	}
	h := reads[0]
	if h.Error != "" {
		// Without the relay's key (NIP-11 self) no relay-signed event
		// counts, and an absence would read as a confirmed deletion.
		return unverified("its relay-signed state could not be checked: %s", h.Error)
	}
	res.After = h.Group
	st := h.Group
	switch in.Action {
	case ActCreate, ActEdit:
		if !h.Found || st.Metadata == nil {
			return unverified("it serves no relay-signed metadata (kind 39000) for group %s", in.ID)
		}
		if diff := metadataDiff(st.Metadata, in.Edit); diff != "" {
			return unverified("its new metadata (kind 39000) %s", diff)
		}
		res.Verified = fmt.Sprintf("the relay-signed metadata (kind 39000 %s) shows the change", sourceID(st, KindMetadata))
		if in.Action == ActCreate {
			res.Verified = fmt.Sprintf("the relay signed the new group's metadata (kind 39000 %s)", sourceID(st, KindMetadata))
			if r := st.RolesOf(in.Me); len(r) > 0 {
				res.Verified += "; you are " + strings.Join(r, ", ")
			}
		}
	case ActPutUser:
		t := h.Target
		res.TargetAfter = t
		if !t.Member {
			return unverified("its record does not make %s a member (%s)", who(in.Target), t.Basis)
		}
		res.Verified = fmt.Sprintf("the latest %s naming %s (%s) makes them a member", t.Basis, who(in.Target), t.EventID)
		if got := sortedRoles(t.Roles); !slices.Equal(got, sortedRoles(in.Roles)) && hasSource(st, KindAdmins) {
			res.Note = fmt.Sprintf("the relay's admin list (kind 39001) gives %s %s, not the %s asked: NIP-29 lets a relay accept role names it does nothing with", who(in.Target), rolesWords(got), rolesWords(sortedRoles(in.Roles)))
		}
		if hasSource(st, KindMembers) && !t.InMembersList {
			res.Note = strings.TrimSpace(res.Note + " its member list (kind 39002) does not list them; it may be partial")
		}
	case ActRemoveUser:
		t := h.Target
		res.TargetAfter = t
		if t.Member {
			return unverified("its record still makes %s a member (%s %s)", who(in.Target), t.Basis, t.EventID)
		}
		if hasSource(st, KindMembers) && t.InMembersList {
			return unverified("its member list (kind 39002) still lists %s", who(in.Target))
		}
		res.Verified = fmt.Sprintf("the latest %s naming %s (%s) removes them", t.Basis, who(in.Target), t.EventID)
	case ActInvite:
		res.Verified = "NIP-29 has no relay-signed record of invite codes: the relay's OK is the evidence"
	case ActDeleteEvent:
		if h.Event != nil {
			return unverified("it still serves event %s", in.EventID)
		}
		res.Verified = fmt.Sprintf("the relay no longer serves event %s", in.EventID)
	case ActDeleteGroup:
		if h.Live {
			return unverified("its relay-signed metadata (kind 39000) still shows group %s live", in.ID)
		}
		res.Verified = fmt.Sprintf("the relay no longer serves group %s as live (kind 39000 %s)", in.ID, orNone(sourceID(st, KindMetadata)))
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "gone"
	}
	return s
}

func hasSource(st *State, kind int) bool { return sourceID(st, kind) != "" }

func sourceID(st *State, kind int) string {
	for _, s := range st.Sources {
		if s.Kind == kind {
			return s.EventID
		}
	}
	return ""
}

// metadataDiff says how got differs from the fields edit asked for ("" when
// it does not).
func metadataDiff(got *Metadata, edit MetadataEdit) string {
	var diffs []string
	text := func(name string, want *string, have string) {
		if want != nil && *want != have {
			diffs = append(diffs, fmt.Sprintf("has %s %q, not %q", name, have, *want))
		}
	}
	flag := func(name string, want *bool, have bool) {
		if want != nil && *want != have {
			diffs = append(diffs, fmt.Sprintf("has %s %v, not %v", name, have, *want))
		}
	}
	text("name", edit.Name, got.Name)
	text("about", edit.About, got.About)
	text("picture", edit.Picture, got.Picture)
	text("banner", edit.Banner, got.Banner)
	flag("private", edit.Private, got.Private)
	flag("closed", edit.Closed, got.Closed)
	flag("restricted", edit.Restricted, got.Restricted)
	flag("hidden", edit.Hidden, got.Hidden)
	text("parent", edit.Parent, got.Parent)
	return strings.Join(diffs, ", ")
}

// The requests, as the journal names their writes' actions.
const (
	actJoin  Action = "join"
	actLeave Action = "leave"
)

// editInstead is a create's command (after "roster") as the edit of the
// group it created, naming the group as ref and keeping the metadata
// flags: the group exists, and an edit without a flag changes nothing.
func editInstead(command []string, ref string) []string {
	words := []string{"group", "edit", ref}
	if len(command) > 3 && command[0] == "group" && command[1] == "create" {
		words = append(words, command[3:]...)
	}
	return words
}
