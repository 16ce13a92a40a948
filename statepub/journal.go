package statepub

import (
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// CodeJournal: the signed state event could not be written to the journal
// of unfinished writes before sending; nothing was published.
const CodeJournal = "journal-unwritable"

// unfinished lists the journal's writes touching the repository or the
// author's state address.
func (p Pipeline) unfinished(v *discovery.View, author string) []journal.Unfinished {
	if p.Journal == nil {
		return nil
	}
	c := v.Coordinate()
	writes, err := p.Journal.Touching(c.ATag(), fmt.Sprintf("%d:%s:%s", graph.KindState, author, c.Identifier),
		fmt.Sprintf("%d:%s:%s", graph.KindAnnouncement, author, c.Identifier))
	if err != nil {
		return nil
	}
	var sources map[string][]string
	if v.Fetch != nil {
		sources = v.Fetch.Sources
	}
	var out []journal.Unfinished
	for _, w := range writes {
		out = append(out, journal.Unfinished{Write: w, Holding: w.Holding(sources)})
	}
	return out
}

// journalBegin writes the signed state event to the journal before it is
// sent: the command, the relays, the plan's fingerprint (the announcements,
// state candidates and deletions of the authors the repository reaches)
// and the verification (the repository resolves this event).
func (p Pipeline) journalBegin(out *Outcome, evt *nostr.Event) error {
	if p.Journal == nil {
		return nil
	}
	v := out.View
	cmd := publishCmd(out.Plan.Forced).Words()[1:]
	reach := map[string]bool{v.Coordinate().Pubkey: true, out.Plan.Author: true}
	for _, pk := range graph.Reachable(v.Events, v.Coordinate(), out.Plan.Author) {
		reach[pk] = true
	}
	deleter := map[string]string{}
	for _, e := range v.Events {
		if e.Kind == nostr.KindDeletion {
			deleter[e.ID] = e.PubKey
		}
	}
	preview := map[string]string{}
	for k, id := range preflight.Fingerprint(v.Events) {
		kind, pk, _ := strings.Cut(k, ":")
		if kind == "5" {
			pk = deleter[pk]
		}
		if reach[pk] {
			preview[k] = id
		}
	}
	err := p.Journal.Begin([]journal.Entry{{
		Pipeline: journal.PipelineState, Command: cmd, Repo: v.Coordinate().ATag(),
		Address: fmt.Sprintf("%d:%s:%s", graph.KindState, evt.PubKey, v.Coordinate().Identifier),
		Relays:  v.PublishRelays(), Preview: preview, Event: evt,
		Verify: journal.Verification{What: "every relay keeps the event and the repository resolves it as its state", State: evt.ID},
	}})
	if err != nil {
		return &Failure{Failure: failure.Failure{Code: CodeJournal, Class: Failed, Err: err, Next: []suggest.Command{suggest.Roster("pending").Because("see the unfinished writes"), publishCmd(out.Plan.Forced)}}, Outcome: out, Lines: []string{"cannot keep the signed state event in the journal of unfinished writes before sending it, so nothing was published: " + err.Error()}}
	}
	out.Journal = evt.ID
	return nil
}

// answered records each relay's OK in the journal.
func (p Pipeline) answered(out *Outcome) func(relaypool.PublishReport) {
	if p.Journal == nil || out.Journal == "" {
		return nil
	}
	write := out.Journal
	return func(r relaypool.PublishReport) {
		if r.OK {
			_ = p.Journal.Acked(write, 0, r.URL)
		}
	}
}

// journalEnd removes the entry once verified or when no relay can hold the
// event; otherwise the failure names the unfinished write.
func (p Pipeline) journalEnd(out *Outcome, err error) error {
	if p.Journal == nil || out == nil || out.Journal == "" {
		return err
	}
	if err == nil || !mayBeStored(out.Delivery) {
		_ = p.Journal.Finish(out.Journal)
		out.Journal = ""
		return err
	}
	if f, ok := err.(*Failure); ok {
		id := out.Journal[:12]
		f.Journal = out.Journal
		f.Next = append(f.Next,
			suggest.Roster("pending", "resume", id).Because("recheck and send the same signed event to the relays that lack it"),
			suggest.Roster("pending", "discard", id).Because("forget the unfinished write (what relays hold stays there)"))
	}
	return err
}

// mayBeStored reports whether some relay may hold the delivered event.
func mayBeStored(d *relaypool.Delivery) bool {
	if d == nil {
		return false
	}
	for _, r := range d.Relays {
		if r.OK || r.Sent && !r.Replied || r.Replied && strings.HasPrefix(r.Message, "duplicate:") {
			return true
		}
	}
	return false
}
