package statepub

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/suggest"
)

// CodeJournal: the signed state event could not be written to the journal
// of unfinished writes before sending; nothing was published.
const CodeJournal = track.CodeUnwritable

// CodeJournalUnreadable: the journal of unfinished writes, or a file in it
// that may be an unfinished write of this repository, cannot be read;
// nothing was signed.
const CodeJournalUnreadable = track.CodeUnreadable

// unfinished lists the journal's writes touching the repository or the
// author's state address. It fails closed: a journal that cannot be read
// stops the publication before anything is signed.
func (p Pipeline) unfinished(v *discovery.View, author string) ([]journal.Unfinished, error) {
	c := v.Coordinate()
	var sources map[string][]string
	if v.Fetch != nil {
		sources = v.Fetch.Sources
	}
	return track.Check(p.Journal, sources, c.ATag(), fmt.Sprintf("%d:%s:%s", graph.KindState, author, c.Identifier),
		fmt.Sprintf("%d:%s:%s", graph.KindAnnouncement, author, c.Identifier))
}

// journalUnreadable is the failure of a publication whose journal cannot
// be read.
func journalUnreadable(out *Outcome, force bool, err error) *Failure {
	return &Failure{Code: CodeJournalUnreadable, Class: Failed, Outcome: out, Err: err,
		Lines: []string{"cannot tell whether an earlier write of this repository did not finish, so nothing was signed: " + err.Error()},
		Commands: []suggest.Command{suggest.Roster("pending").Because("list the unfinished writes and the journal files that cannot be read"),
			publishCmd(force).Because("run it again once the journal can be read")}}
}

// journalBegin writes the signed state event to the journal before it is
// sent: the command, the relays, the plan's fingerprint (the announcements,
// state candidates and deletions of the authors the repository reaches)
// and the verification (the repository resolves this event).
func (p Pipeline) journalBegin(out *Outcome, evt *nostr.Event) error {
	v := out.View
	cmd := publishCmd(out.Plan.Forced).Words()[1:]
	preview := track.Preview(preflight.Fingerprint(v.Events), v.Events, v.Coordinate(), out.Plan.Author)
	w, err := track.Begin(p.Journal, []journal.Entry{{
		Pipeline: journal.PipelineState, Command: cmd, Repo: v.Coordinate().ATag(),
		Address: fmt.Sprintf("%d:%s:%s", graph.KindState, evt.PubKey, v.Coordinate().Identifier),
		Relays:  v.PublishRelays(), Preview: preview, Event: evt,
		Verify: journal.Verification{What: "every relay keeps the event and the repository resolves it as its state", State: evt.ID},
	}})
	if err != nil {
		return &Failure{Code: CodeJournal, Class: Failed, Outcome: out, Err: err,
			Lines:    []string{"cannot keep the signed state event in the journal of unfinished writes before sending it, so nothing was published: " + err.Error()},
			Commands: []suggest.Command{suggest.Roster("pending").Because("see the unfinished writes"), publishCmd(out.Plan.Forced)}}
	}
	out.Journal, out.kept = w.ID, w
	return nil
}

// journalEnd removes the entry once verified or when no relay can hold the
// event; otherwise the failure names the unfinished write.
func (p Pipeline) journalEnd(out *Outcome, err error) error {
	if out == nil || out.kept == nil {
		return err
	}
	if !out.kept.End(err == nil, track.MayBeStored(out.Delivery)) {
		out.Journal = ""
		return err
	}
	if f, ok := err.(*Failure); ok {
		f.Journal = out.Journal
		f.Commands = append(f.Commands, track.Commands(out.Journal)...)
	}
	return err
}
