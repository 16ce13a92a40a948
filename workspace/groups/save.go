package groups

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// Deliverer publishes one event to several relays and reads it back
// (relaypool.Pool fits).
type Deliverer interface {
	Deliver(ctx context.Context, relays []string, evt *nostr.Event, opts relaypool.DeliverOptions) *relaypool.Delivery
}

// List statuses of a join's or leave's kind 10009 groups list.
const (
	ListSaved     = "saved"     // the new version was published and read back
	ListUnchanged = "unchanged" // already as wanted
	ListOffered   = "offered"   // not saved: Offer saves it
	ListSkipped   = "skipped"   // a pending join: nothing to add yet
)

// ListInput is the groups-list change that follows a join or a leave.
type ListInput struct {
	Relays  pipeline.Relays
	Deliver Deliverer
	Sign    func(context.Context, *nostr.Event) error
	Me      string
	Now     func() nostr.Timestamp
	Journal *journal.Dir
	// Request is what the join or leave did; ID and Name the group's id
	// and name (for a new entry).
	Request RequestResult
	ID      string
	Name    string
	// ListRelays are the relays the list is read from and published to
	// (the configured ones; the group's relay is added).
	ListRelays []string
	// From (join only) also drops the group's entry for that relay.
	From string
	// Save publishes the new version; without it the change is offered.
	Save bool
}

// ListChange is what happened to the groups list.
type ListChange struct {
	Status   string
	Previous string
	EventID  string
	Relays   []relaypool.Delivered
	// Offer is the command that saves the change (status offered).
	Offer *suggest.Command
	// Journal is the list write's id while it is unfinished.
	Journal string
}

// SaveList offers or (Save) publishes the kind 10009 that matches a join's
// or leave's outcome (NIP-51, nip-29.md "Storing your list of groups"): the
// group's entry added after a join, removed after a leave, every other tag
// and the content kept. A list built on a read some relay did not answer
// is never published (a newer version may be there). The signed list is
// kept in the journal from before it is sent until a relay returns it.
func SaveList(ctx context.Context, in ListInput) (ListChange, error) {
	up := ListChange{Status: ListUnchanged, Relays: []relaypool.Delivered{}}
	res := in.Request
	if res.Outcome == OutcomePending {
		up.Status = ListSkipped
		return up, nil
	}
	listRelays := relaypool.NormalizeRelays(append(append([]string{}, in.ListRelays...), res.Relay))
	lists, statuses, complete := ListsRead(ctx, in.Relays, listRelays, []string{in.Me})
	prev := lists[in.Me]
	if prev != nil {
		up.Previous = prev.ID
	}
	var next *nostr.Event
	var changed bool
	if res.Kind == KindJoinRequest {
		next, changed = WithEntryFrom(prev, ListEntry{ID: in.ID, Relay: res.Relay, Name: in.Name}, in.From, in.Now())
	} else {
		next, changed = WithoutEntry(prev, in.ID, res.Relay, in.Now())
	}
	verb := map[int]string{KindJoinRequest: "join", KindLeaveRequest: "leave"}[res.Kind]
	save := suggest.Roster("group", verb, res.Relay+"'"+in.ID, "--save")
	if in.From != "" {
		save = save.With("--from", in.From)
	}
	if !changed {
		return up, nil
	}
	if !in.Save {
		up.Status = ListOffered
		offer := save.Because("update your kind 10009 groups list")
		up.Offer = &offer
		return up, nil
	}
	if !complete {
		return up, &pipeline.Error{Class: pipeline.Incomplete, Code: CodeIncomplete,
			Details: map[string]any{"relays": listRelays, "outcome": res.Outcome},
			Next:    []suggest.Command{retryLater(save, statuses)},
			Msg:     fmt.Sprintf("the %s is done, but not every relay answered for your kind 10009 groups list, so it was not rewritten (a newer version may be on a relay that did not answer)", verb)}
	}
	if err := in.Sign(ctx, next); err != nil {
		return up, pipeline.Signed(err)
	}
	preview := map[string]string{"list": "none"}
	if prev != nil {
		preview = map[string]string{"list": prev.ID, "list-at": fmt.Sprint(int64(prev.CreatedAt))}
	}
	kept, err := track.Begin(in.Journal, []journal.Entry{{Pipeline: PipelineGroups, Command: save.Words()[1:], Repo: Address(res.Relay, in.ID),
		Address: ListAddress(in.Me), Relays: listRelays, Preview: preview, Event: next,
		Verify: journal.Verification{What: "a relay returns the new groups list (kind 10009) and none keeps a newer one"}}})
	if err != nil {
		return up, journalErr(err, save)
	}
	write := kept.ID
	var answered func(relaypool.PublishReport)
	if in.Journal != nil && write != "" {
		answered = func(r relaypool.PublishReport) {
			if r.OK {
				_ = in.Journal.Acked(write, 0, r.URL)
			}
		}
	}
	if err := listStillAsRead(ctx, in, listRelays, prev, save, verb, res.Outcome); err != nil {
		if in.Journal != nil {
			_ = in.Journal.Finish(write)
		}
		return up, err
	}
	d := in.Deliver.Deliver(ctx, listRelays, next, relaypool.DeliverOptions{Answered: answered})
	up.Relays, up.EventID = d.Relays, next.ID
	backed, stored := false, false
	var problems []string
	for _, r := range d.Relays {
		backed = backed || r.OK && r.ReadBack
		stored = stored || r.OK || r.Sent && !r.Replied
		if !r.OK || !r.ReadBack {
			problems = append(problems, relayFailure(r.URL, r.Message))
		}
	}
	if !backed {
		pe := &pipeline.Error{Class: pipeline.Unverified, Code: CodeModerationUnsure,
			Details: map[string]any{"event_id": next.ID, "relays": d.Relays, "outcome": res.Outcome},
			Msg:     fmt.Sprintf("the %s is done, but no relay accepted and returned your new kind 10009 groups list: %s", verb, strings.Join(problems, "; "))}
		if stored && write != "" {
			up.Journal = write
			return up, withPending(pe, write)
		}
		if in.Journal != nil {
			_ = in.Journal.Finish(write)
		}
		return up, pe
	}
	if in.Journal != nil {
		_ = in.Journal.Finish(write)
	}
	up.Status = ListSaved
	return up, nil
}

// listStillAsRead reads the list again right before the new version is
// sent: a version another device saved meanwhile (while this one was
// signed, which a bunker takes its time over) would be replaced unseen and
// its entries lost, as a replaceable event keeps one version. Any other
// latest version than prev, or a read some relay did not answer, stops the
// save with nothing sent.
func listStillAsRead(ctx context.Context, in ListInput, relays []string, prev *nostr.Event, save suggest.Command, verb, outcome string) error {
	lists, statuses, complete := ListsRead(ctx, in.Relays, relays, []string{in.Me})
	if !complete {
		return &pipeline.Error{Class: pipeline.Incomplete, Code: CodeIncomplete,
			Details: map[string]any{"relays": relays, "outcome": outcome},
			Next:    []suggest.Command{retryLater(save, statuses)},
			Msg:     fmt.Sprintf("the %s is done, but not every relay answered when your kind 10009 groups list was read again right before sending, so it was not sent (a newer version may be on a relay that did not answer)", verb)}
	}
	now := lists[in.Me]
	if now == nil && prev == nil || now != nil && prev != nil && now.ID == prev.ID {
		return nil
	}
	read, found := "none", "none"
	if prev != nil {
		read = prev.ID
	}
	if now != nil {
		found = now.ID
	}
	return &pipeline.Error{Class: pipeline.Refused, Code: CodeConcurrentChange,
		Details: map[string]any{"previous": read, "latest": found, "outcome": outcome},
		Next:    []suggest.Command{save.Because("update your groups list as it is now")},
		Msg: fmt.Sprintf("the %s is done, but your kind 10009 groups list changed while the new version was signed (a relay serves %s; it was built on %s), so it was not sent: rerun to update the list as it is now",
			verb, found, read)}
}

// relayFailure is one relay's answer that did not keep the list.
func relayFailure(url, msg string) string {
	if msg == "" {
		return url + ": not saved"
	}
	return url + ": not saved: " + msg
}

// resumeList finishes an unfinished groups-list write: it sends the same
// list to the relays that lack it, only when no other version of the list
// appeared since its preview and it is inside the acceptance window.
func resumeList(ctx context.Context, in ResumeInput, w journal.Write, r Resumed) (Resumed, error) {
	e := w.First()
	evt := e.Event
	relays := relaypool.NormalizeRelays(e.Relays)
	read := func() (*relaypool.FetchResult, error) {
		res := in.Relays.Fetch(ctx, relays, nostr.Filter{Kinds: []int{KindGroupsList}, Authors: []string{evt.PubKey}}, nostr.Filter{IDs: []string{evt.ID}})
		if !res.Complete {
			return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: CodeIncomplete, Details: map[string]any{"write": w.ID, "relays": res.Relays},
				Next: PendingCommands(w.ID)[:1],
				Msg:  "not every relay answered for your kind 10009 groups list, so roster cannot recheck the unfinished write; nothing was sent"}
		}
		return res, nil
	}
	res, err := read()
	if err != nil {
		return r, err
	}
	r.Holding[evt.ID] = append([]string{}, res.Sources[evt.ID]...)
	var lacking []string
	for _, u := range relays {
		if !containsRelay(r.Holding[evt.ID], u) {
			lacking = append(lacking, u)
		}
	}
	details := map[string]any{"write": w.ID, "holding": r.Holding}
	if len(lacking) > 0 {
		if journal.Expired(evt, in.Now()) {
			return r, &pipeline.Error{Class: pipeline.Refused, Code: CodePendingExpired, Details: details, Next: rerun(w, false),
				Msg: fmt.Sprintf("the groups list %s was signed more than %v ago; nothing was sent. %s", evt.ID, journal.AcceptanceWindow, heldWords(w, r.Holding))}
		}
		if latest := newerOther(res.Events, evt, e.Preview); latest != "" {
			return r, &pipeline.Error{Class: pipeline.Refused, Code: CodeConcurrentChange, Details: details, Next: rerun(w, false),
				Msg: fmt.Sprintf("your kind 10009 groups list changed after the unfinished write's preview (a relay serves the version %s; the preview used %s); nothing was sent. %s Rerun the command to preview the list as it is now",
					latest, e.Preview["list"], heldWords(w, r.Holding))}
		}
		var out []relaypool.Delivered
		for _, u := range lacking {
			rep := in.Publish(ctx, u, evt)
			out = append(out, relaypool.Delivered{URL: rep.URL, OK: rep.OK, Message: rep.Message, Sent: rep.Sent, Replied: rep.Replied})
			if rep.OK && in.Journal != nil {
				_ = in.Journal.Acked(w.ID, 0, u)
			}
		}
		r.Sent[evt.ID] = out
	}
	after, err := read()
	if err != nil {
		// The list may have been sent: say so (unverified), not the read's
		// "nothing was sent".
		return r, withPending(sentThen(err, r, w), w.ID)
	}
	if len(after.Sources[evt.ID]) == 0 {
		return r, withPending(&pipeline.Error{Class: pipeline.Unverified, Code: CodeModerationUnsure, Details: details,
			Msg: fmt.Sprintf("no relay returns the groups list %s", evt.ID)}, w.ID)
	}
	for _, x := range after.Events {
		if x.Kind == KindGroupsList && x.PubKey == evt.PubKey && x.ID != evt.ID && (x.CreatedAt > evt.CreatedAt || x.CreatedAt == evt.CreatedAt && x.ID < evt.ID) {
			return r, withPending(&pipeline.Error{Class: pipeline.Unverified, Code: CodeModerationUnsure, Details: details,
				Msg: fmt.Sprintf("a relay keeps a newer groups list %s instead of %s", x.ID, evt.ID)}, w.ID)
		}
	}
	r.Verified = fmt.Sprintf("%s return the groups list %s", strings.Join(after.Sources[evt.ID], ", "), evt.ID)
	if in.Journal != nil {
		_ = in.Journal.Finish(w.ID)
	}
	return r, nil
}

// newerOther is the id of a validly signed kind 10009 of evt's author
// other than evt and the version its preview used (preview "list", dated
// "list-at") that is not older than that version: another client's list
// ("" when there is none).
func newerOther(events []*nostr.Event, evt *nostr.Event, preview map[string]string) string {
	var at int64 = -1
	if v, ok := preview["list-at"]; ok {
		fmt.Sscan(v, &at)
	}
	for _, x := range events {
		if x.Kind != KindGroupsList || x.PubKey != evt.PubKey || x.ID == evt.ID || x.ID == preview["list"] || !x.CheckID() || int64(x.CreatedAt) < at {
			continue
		}
		if ok, err := x.CheckSignature(); err != nil || !ok {
			continue
		}
		return x.ID
	}
	return ""
}

func containsRelay(list []string, u string) bool {
	for _, x := range list {
		if sameRelay(x, u) {
			return true
		}
	}
	return false
}

// retryLater is again to run once the relays are back: with a longer
// --timeout only when one of them timed out, since more time does not help
// a relay that refused the connection or closed the request.
func retryLater(again suggest.Command, statuses []string) suggest.Command {
	if slices.Contains(statuses, relaypool.StatusTimeout) {
		return again.With("--timeout", "30s").Because("retry once the relays are back; give slow relays longer")
	}
	return again.Because("retry once the relays are back")
}
