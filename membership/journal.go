package membership

import (
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/suggest"
)

// KindJournal: the signed events could not be written to the journal of
// unfinished writes before sending (an unwritable data directory, a full
// journal); nothing was published.
const KindJournal = track.CodeUnwritable

// KindJournalUnreadable: the journal of unfinished writes, or a file in
// it that may be an unfinished write of this coordinate, cannot be read, so
// the change cannot tell whether it would sign a second event beside an
// unfinished one; nothing was signed.
const KindJournalUnreadable = track.CodeUnreadable

// unfinishedFor lists the journal's writes touching v's coordinate or the
// author's announcement or state of its identifier. It fails closed: a
// journal that cannot be read stops the change before anything is signed.
func unfinishedFor(j *journal.Dir, v *discovery.View, author string) ([]journal.Unfinished, error) {
	if j == nil || v == nil {
		return nil, nil
	}
	c := v.Coordinate()
	return track.Check(j, sources(v), c.ATag(), fmt.Sprintf("%d:%s:%s", graph.KindAnnouncement, author, c.Identifier),
		fmt.Sprintf("%d:%s:%s", graph.KindState, author, c.Identifier))
}

// journalUnreadable is the failure of a change whose journal cannot be read.
// `roster pending` lists and discards journal files that cannot be read; a
// journal directory that cannot be read at all fails it the same way, so
// then only the change itself is named, for once the journal is fixed.
func journalUnreadable(out *Outcome, err error) *Failure {
	var next []suggest.Command
	if ue := (*journal.UnreadableError)(nil); !errors.As(err, &ue) || ue.Err == nil {
		next = append(next, suggest.Roster("pending").Because("list the unfinished writes and the journal files that cannot be read"))
	}
	next = append(next, out.Intent.Suggest().Because("run the change again once the journal can be read"))
	return &Failure{Failure: failure.Failure{Code: KindJournalUnreadable, Class: failure.Unexpected, Err: err,
		Msg:  "cannot tell whether an earlier write of this repository did not finish, so nothing was signed: " + err.Error(),
		Next: next}, Outcome: out}
}

// journalEntries are the entries of the events a change is about to send
// (the state event first when there is one): the command, the relays, the
// preview's fingerprint (only the keys of authors the change can be
// affected by, as the recheck compares them) and the verification.
func journalEntries(out *Outcome, events ...*nostr.Event) []journal.Entry {
	cmd := out.Intent.Suggest().Words()
	if len(cmd) > 0 && cmd[0] == "roster" {
		cmd = cmd[1:]
	}
	preview := track.Preview(out.Plan.Fingerprint, out.Before.Events, out.Before.Coordinate(), reachSeeds(out)...)
	ver := journal.Verification{
		What: "every relay keeps the event as the latest version of its address and the repository resolves as previewed",
	}
	if a := out.Plan.After; a != nil {
		ver.Lead, ver.LeadSource = a.Lead, string(a.LeadSource)
		ver.Maintainers, ver.Moderators = memberWords(a.Maintainers), memberWords(a.Moderators)
	}
	if s := out.Plan.State.After; s != nil {
		ver.State = s.EventID
	}
	repo := out.Before.Coordinate().ATag()
	var entries []journal.Entry
	for _, evt := range events {
		if evt == nil {
			continue
		}
		entries = append(entries, journal.Entry{
			Pipeline: journal.PipelineMembership, Command: cmd, Repo: repo,
			Address: fmt.Sprintf("%d:%s:%s", evt.Kind, evt.PubKey, out.Before.Coordinate().Identifier),
			Relays:  out.Before.PublishRelays(), Preview: preview, Verify: ver, Event: evt,
		})
	}
	return entries
}

// journalBegin writes the change's signed events to the journal before the
// first is sent; a journal that cannot take them stops the change.
func (p Pipeline) journalBegin(out *Outcome, events ...*nostr.Event) (*track.Write, error) {
	w, err := track.Begin(p.Journal, journalEntries(out, events...))
	if err != nil {
		return w, &Failure{Failure: failure.Failure{Code: KindJournal, Class: failure.Unexpected, Err: err,
			Msg: "cannot keep the signed events in the journal of unfinished writes before sending them, so nothing was published: " + err.Error(),
			Next: []suggest.Command{suggest.Roster("pending").Because("see the unfinished writes"),
				out.Intent.Suggest().Because("run the change again once the journal can be written")}}, Outcome: out}
	}
	out.Journal, out.kept = w.ID, w
	return w, nil
}

// journalEnd removes the change's entries once it was verified, or when
// none of its events can be stored anywhere (no relay was sent one, or
// every relay that was refused it); otherwise the entries stay and the
// failure says how to finish or drop the write.
func (p Pipeline) journalEnd(out *Outcome, err error) error {
	if out == nil || out.kept == nil {
		return err
	}
	if !out.kept.End(err == nil, track.MayBeStored(out.StateDelivery, out.Delivery)) {
		out.Journal = ""
		return err
	}
	if f, ok := err.(*Failure); ok {
		f.Journal = out.Journal
		f.Next = append(f.Next, PendingCommands(out.Journal)...)
	}
	return err
}

// PendingCommands offer finishing or dropping an unfinished write
// (track.Commands).
func PendingCommands(write string) []suggest.Command { return track.Commands(write) }

// short is a write's id as commands name it.
func short(id string) string { return track.Short(id) }

// memberWords are members as the journal keeps them: "<hex>:<status>".
func memberWords(ms []graph.Member) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.Pubkey+":"+m.Status)
	}
	return out
}
