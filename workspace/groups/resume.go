package groups

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// Resume failure codes (beside pipeline's OK-prefix codes, CodeIncomplete
// and CodeModerationUnsure).
const (
	// CodeConcurrentChange: the relay-signed state (or the group's
	// moderation events) the write relied on changed since; nothing sent.
	CodeConcurrentChange = "concurrent-change"
	// CodePendingExpired: an event the relay lacks is older than the
	// acceptance window (nip-29.md "Late publication"); nothing sent.
	CodePendingExpired = "pending-expired"
	// CodePendingIncomplete: the journal holds only some of the write's
	// events; nothing sent.
	CodePendingIncomplete = "pending-incomplete"
)

// ResumeInput is what finishing an unfinished NIP-29 write needs: the
// relays to read and publish through, the journal and the clock.
type ResumeInput struct {
	Relays  pipeline.Relays
	Publish pipeline.Publish
	Journal *journal.Dir
	Now     func() time.Time
}

// Resumed is what a resume did.
type Resumed struct {
	// Holding maps each event id of the write to the relays that held it
	// before the resume sent anything.
	Holding map[string][]string
	// Sent maps each event id sent again to each relay's answer.
	Sent map[string][]relaypool.Delivered
	// Verified says what the relay's state shows now.
	Verified string
}

// Resume finishes the unfinished NIP-29 write w (PipelineGroups): it reads
// the relay again and, only when every event it lacks is still inside the
// acceptance window (journal.AcceptanceWindow: nip-29.md "Relays should
// prevent late publication (messages published now with a timestamp from
// days or even hours ago)") and the recheck finds the relay-signed state
// the write relied on unchanged (once an event of the write is stored, the
// group's moderation events other than the write's own), sends the same
// signed events to the relay in the write's order, rechecking between
// them; then it verifies what the write awaited and removes the entry.
// Otherwise it sends nothing.
func Resume(ctx context.Context, in ResumeInput, w journal.Write) (Resumed, error) {
	r := Resumed{Holding: map[string][]string{}, Sent: map[string][]relaypool.Delivered{}}
	if !w.Complete() {
		return r, &pipeline.Error{Class: pipeline.Refused, Code: CodePendingIncomplete, Details: map[string]any{"write": w.ID},
			Next: []suggest.Command{suggest.Roster("pending", "discard", short(w.ID)).Because("forget the incomplete write")},
			Msg:  fmt.Sprintf("the journal holds %d of the write's events, not all of them; nothing was sent", len(w.Entries))}
	}
	if strings.HasPrefix(w.First().Address, strconv.Itoa(KindGroupsList)+":") {
		return resumeList(ctx, in, w, r)
	}
	first := w.First()
	relays := relaypool.NormalizeRelays(first.Relays)
	id := tagValue(first.Event.Tags, "h")
	if len(relays) != 1 || id == "" {
		return r, &pipeline.Error{Class: pipeline.Failure, Code: CodePendingIncomplete, Details: map[string]any{"write": w.ID},
			Msg: fmt.Sprintf("the unfinished write %s names no group and relay roster can read; nothing was sent", short(w.ID))}
	}
	relay := relays[0]
	mi, parent := inputOf(w)
	spec := readSpec{target: mi.Target, eventID: mi.EventID, parent: parent, mods: true, ids: w.EventIDs()}
	h, err := resumeRead(ctx, in, relay, id, spec, w)
	if err != nil {
		return r, err
	}
	held := func(h hostRead, e journal.Entry) bool {
		return slices.ContainsFunc(h.served, func(x *nostr.Event) bool { return x.ID == e.Event.ID })
	}
	heldAny := false
	var lacking []journal.Entry
	for _, e := range w.Entries {
		r.Holding[e.Event.ID] = []string{}
		if held(h, e) {
			r.Holding[e.Event.ID] = []string{relay}
			heldAny = true
		} else {
			lacking = append(lacking, e)
		}
	}
	details := map[string]any{"write": w.ID, "relay": relay, "id": id, "holding": r.Holding}
	if len(lacking) > 0 {
		now := in.Now()
		for _, e := range lacking {
			if journal.Expired(e.Event, now) {
				return r, &pipeline.Error{Class: pipeline.Refused, Code: CodePendingExpired, Details: details, Next: rerun(w, heldAny),
					Msg: fmt.Sprintf("the event %s was signed at %s, more than %v ago, and NIP-29 relays refuse late publication; nothing was sent. %s",
						e.Event.ID, e.Event.CreatedAt.Time().UTC().Format("2006-01-02 15:04:05 UTC"), journal.AcceptanceWindow, heldWords(w, r.Holding))}
			}
		}
		if err := recheck(first.Preview, h, w, heldAny, details); err != nil {
			return r, err
		}
	}
	for k, e := range lacking {
		if k > 0 {
			// The intermediate recheck: the next event goes only when
			// nothing but this write changed the group since.
			h2, err := resumeRead(ctx, in, relay, id, spec, w)
			if err == nil {
				err = recheck(first.Preview, h2, w, true, details)
			}
			if err != nil {
				return r, sentThen(err, r, w)
			}
		}
		rep := in.Publish(ctx, relay, e.Event)
		r.Sent[e.Event.ID] = []relaypool.Delivered{{URL: rep.URL, OK: rep.OK, Message: rep.Message, Sent: rep.Sent, Replied: rep.Replied}}
		if !rep.OK {
			what := fmt.Sprintf("the %s (kind %d) for group %s", kindName(e.Event.Kind), e.Event.Kind, id)
			rej := pipeline.Rejection(rep, relay, what, details, nil)
			if heldAny || k > 0 {
				rej.Class, rej.Code = pipeline.Unverified, CodeModerationUnsure
				rej.Msg = fmt.Sprintf("%s; %s, so the write stays unfinished", rej.Msg, heldWords(w, r.Holding))
			}
			return r, withPending(rej, w.ID)
		}
		if in.Journal != nil {
			_ = in.Journal.Acked(w.ID, e.Seq, relay)
		}
	}
	again, complete := readHost(ctx, in.Relays, []string{relay}, id, readSpec{target: mi.Target, eventID: mi.EventID, parent: parent, selves: []pipeline.RelaySelf{h.info}})
	res := ModerationResult{Action: mi.Action, Relay: relay, ID: id}
	for _, e := range w.Entries {
		res.Steps = append(res.Steps, Step{Kind: e.Event.Kind, Name: kindName(e.Event.Kind), Event: e.Event, Sent: true, Accepted: true})
	}
	switch mi.Action {
	case actJoin, actLeave:
		err = verifyRequest(&res, mi, again, complete)
	default:
		err = verify(&res, mi, again, complete)
	}
	if err != nil {
		return r, withPending(err, w.ID)
	}
	r.Verified = res.Verified
	if in.Journal != nil {
		_ = in.Journal.Finish(w.ID)
	}
	return r, nil
}

// resumeRead reads the hosting relay for a resume: a read that does not
// complete, or a relay whose key is unknown, sends nothing.
func resumeRead(ctx context.Context, in ResumeInput, relay, id string, spec readSpec, w journal.Write) (hostRead, error) {
	reads, complete := readHost(ctx, in.Relays, []string{relay}, id, spec)
	if !complete || len(reads) != 1 || reads[0].Status != relaypool.StatusOK || reads[0].Error != "" {
		why := "it did not answer"
		if len(reads) == 1 {
			why = pipeline.Outcome(reads[0].Status, reads[0].Reason)
			if reads[0].Error != "" {
				why = reads[0].Error
			}
		}
		return hostRead{}, &pipeline.Error{Class: pipeline.Incomplete, Code: CodeIncomplete, Details: map[string]any{"write": w.ID, "relay": relay, "id": id},
			Next: PendingCommands(w.ID)[:1],
			Msg:  fmt.Sprintf("re-reading group %s on %s did not complete (%s), so roster cannot recheck the unfinished write; nothing was sent", id, relay, why)}
	}
	return reads[0], nil
}

// inputOf is the command a write's events make, as its verification needs
// it, and the parent a 9002 names.
func inputOf(w journal.Write) (ModerationInput, string) {
	first := w.First().Event
	in := ModerationInput{ID: tagValue(first.Tags, "h"), Me: first.PubKey}
	parent := ""
	for _, en := range w.Entries {
		e := en.Event
		switch e.Kind {
		case KindCreateGroup:
			in.Action = ActCreate
		case KindEditMetadata:
			if in.Action == "" {
				in.Action = ActEdit
			}
			in.Edit = editOf(e.Tags)
			parent = *in.Edit.Parent
		case KindPutUser, KindRemoveUser:
			in.Action = map[int]Action{KindPutUser: ActPutUser, KindRemoveUser: ActRemoveUser}[e.Kind]
			if p := e.Tags.GetFirst([]string{"p", ""}); p != nil {
				in.Target, in.Roles = (*p)[1], append([]string{}, (*p)[2:]...)
			}
		case KindCreateInvite:
			in.Action, in.Code = ActInvite, tagValue(e.Tags, "code")
		case KindDeleteEvent:
			in.Action, in.EventID = ActDeleteEvent, tagValue(e.Tags, "e")
		case KindDeleteGroup:
			in.Action = ActDeleteGroup
		case KindJoinRequest:
			in.Action, in.Target = actJoin, e.PubKey
		case KindLeaveRequest:
			in.Action, in.Target = actLeave, e.PubKey
		}
	}
	return in, parent
}

// editOf is every metadata field a 9002 sets: a create's starts from no
// metadata and an edit's carries all of it, so what it lacks is unset.
func editOf(tags nostr.Tags) MetadataEdit {
	s := func(name string) *string { v := tagValue(tags, name); return &v }
	f := func(name string) *bool {
		v := slices.ContainsFunc(tags, func(t nostr.Tag) bool { return len(t) > 0 && t[0] == name })
		return &v
	}
	return MetadataEdit{Name: s("name"), About: s("about"), Picture: s("picture"), Banner: s("banner"),
		Private: f("private"), Closed: f("closed"), Restricted: f("restricted"), Hidden: f("hidden"), Parent: s("parent")}
}

// recheck compares the fresh read h with the fingerprint the write's
// preview kept. Before any event of the write is stored, the relay-signed
// state (the group's, the parent's), the event to delete and the group's
// moderation events must all be as they were; once one is, the state is
// the relay's answer to it, and only a moderation event or request that is
// neither the write's own nor the relay's answer naming the signer counts.
func recheck(stored map[string]string, h hostRead, w journal.Write, heldAny bool, details map[string]any) error {
	own := map[string]bool{}
	for _, id := range w.EventIDs() {
		own[id] = true
	}
	me := w.First().Event.PubKey
	var changed []string
	if !heldAny {
		fresh := fingerprint(h)
		keys := map[string]bool{}
		for k := range stored {
			keys[k] = true
		}
		parentKept := false
		for k := range stored {
			parentKept = parentKept || strings.HasPrefix(k, "parent:")
		}
		for k := range fresh {
			// A parent the write did not check (an edit carries the current
			// one) is not compared.
			if parentKept || !strings.HasPrefix(k, "parent:") {
				keys[k] = true
			}
		}
		var sorted []string
		for k := range keys {
			if !strings.HasPrefix(k, "mod") {
				sorted = append(sorted, k)
			}
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			if stored[k] != fresh[k] {
				changed = append(changed, describeKey(k))
			}
		}
	}
	var since int64 = -1
	if v, ok := stored["mod-since"]; ok {
		since, _ = strconv.ParseInt(v, 10, 64)
	}
	for _, e := range h.Mods {
		if own[e.ID] || stored["mod:"+e.ID] != "" || int64(e.CreatedAt) < since {
			continue
		}
		if heldAny && e.PubKey == h.Self && (e.Kind == KindPutUser || e.Kind == KindRemoveUser) && e.Tags.GetFirst([]string{"p", me}) != nil {
			continue // the relay's own answer to this write (a join admitted)
		}
		changed = append(changed, fmt.Sprintf("a %s (kind %d %s by %s)", kindName(e.Kind), e.Kind, e.ID, who(e.PubKey)))
	}
	if len(changed) == 0 {
		return nil
	}
	d := map[string]any{"changed": changed}
	for k, v := range details {
		d[k] = v
	}
	holding, _ := details["holding"].(map[string][]string)
	return &pipeline.Error{Class: pipeline.Refused, Code: CodeConcurrentChange, Details: d, Next: rerun(w, heldAny),
		Msg: fmt.Sprintf("group %s changed on %s after the unfinished write's preview (%s); nothing was sent. %s Rerun the command to preview the group as it is now",
			tagValue(w.First().Event.Tags, "h"), w.First().Relays[0], strings.Join(changed, "; "), heldWords(w, holding))}
}

// sentThen is a recheck failure between two events after this resume sent
// the first: not "nothing was sent" but what was, and the write stays.
func sentThen(err error, r Resumed, w journal.Write) error {
	pe, ok := err.(*pipeline.Error)
	if !ok || len(r.Sent) == 0 {
		return err
	}
	var sent []string
	for id := range r.Sent {
		sent = append(sent, id)
	}
	sort.Strings(sent)
	out := *pe
	why, _, _ := strings.Cut(pe.Msg, "; nothing was sent")
	out.Class = pipeline.Unverified
	out.Msg = fmt.Sprintf("this resume sent the event %s; then %s, so the next event was not sent and the write stays unfinished", strings.Join(sent, ", "), why)
	return withPending(&out, w.ID)
}

// rerun are the write's command run afresh and the discard of the entry.
// A create whose create-group is stored is rerun as the edit of its
// metadata: the group exists.
func rerun(w journal.Write, heldAny bool) []suggest.Command {
	cmd := w.First().Command
	if heldAny && len(cmd) > 1 && cmd[0] == "group" && cmd[1] == "create" {
		cmd = append([]string{"group", "edit"}, cmd[2:]...)
	}
	var out []suggest.Command
	if len(cmd) > 0 {
		out = append(out, suggest.Roster(cmd...).Because("preview the group as it is now and apply the change again"))
	}
	return append(out, suggest.Roster("pending", "discard", short(w.ID)).Because("then forget the unfinished write"))
}

// heldWords says which relays already hold the write's events.
func heldWords(w journal.Write, holding map[string][]string) string {
	var parts []string
	for _, e := range w.Entries {
		if h := holding[e.Event.ID]; len(h) > 0 {
			parts = append(parts, fmt.Sprintf("%s (kind %d) is held by %s", e.Event.ID, e.Event.Kind, strings.Join(h, ", ")))
		} else {
			parts = append(parts, fmt.Sprintf("no relay holds %s (kind %d)", e.Event.ID, e.Event.Kind))
		}
	}
	return strings.Join(parts, "; ") + "."
}

func kindName(kind int) string {
	switch kind {
	case KindJoinRequest:
		return "join request"
	case KindLeaveRequest:
		return "leave request"
	case KindGroupsList:
		return "groups list"
	}
	if n := StepName(kind); n != "" {
		return n
	}
	return "event"
}

// verifyRequest verifies a resumed join or leave by the re-read membership.
func verifyRequest(res *ModerationResult, in ModerationInput, reads []hostRead, complete bool) error {
	details := map[string]any{"relay": res.Relay, "id": in.ID, "event_id": res.Steps[0].Event.ID}
	show := suggest.Roster("group", "show", res.Relay+"'"+in.ID, "--me")
	if !complete || len(reads) != 1 || reads[0].Status != relaypool.StatusOK || reads[0].Target == nil {
		return &pipeline.Error{Class: pipeline.Unverified, Code: CodeModerationUnsure, Details: details, Next: []suggest.Command{show},
			Msg: fmt.Sprintf("%s holds the request, but re-reading your membership there did not complete", res.Relay)}
	}
	m := reads[0].Target
	switch {
	case in.Action == actJoin && m.Member:
		res.Verified = fmt.Sprintf("the latest %s naming you (%s) makes you a member", m.Basis, m.EventID)
	case in.Action == actJoin:
		res.Verified = "the relay holds your join request and has not admitted you: an admin decides"
	case !m.Member:
		res.Verified = "the relay's record no longer makes you a member"
	default:
		return &pipeline.Error{Class: pipeline.Unverified, Code: CodeStillMember, Details: details, Next: []suggest.Command{show},
			Msg: fmt.Sprintf("%s holds the leave request but still makes you a member (%s %s)", res.Relay, m.Basis, m.EventID)}
	}
	return nil
}
