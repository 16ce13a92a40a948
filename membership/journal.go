package membership

import (
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// KindJournal: the signed events could not be written to the journal of
// unfinished writes before sending (an unwritable data directory, a full
// journal); nothing was published.
const KindJournal = "journal-unwritable"

// unfinishedFor lists the journal's writes touching v's coordinate or the
// author's announcement of its identifier.
func unfinishedFor(j *journal.Dir, v *discovery.View, author string) []journal.Unfinished {
	if j == nil || v == nil {
		return nil
	}
	c := v.Coordinate()
	writes, err := j.Touching(c.ATag(), fmt.Sprintf("%d:%s:%s", graph.KindAnnouncement, author, c.Identifier),
		fmt.Sprintf("%d:%s:%s", graph.KindState, author, c.Identifier))
	if err != nil || len(writes) == 0 {
		return nil
	}
	var sources map[string][]string
	if v.Fetch != nil {
		sources = v.Fetch.Sources
	}
	out := make([]journal.Unfinished, 0, len(writes))
	for _, w := range writes {
		out = append(out, journal.Unfinished{Write: w, Holding: w.Holding(sources)})
	}
	return out
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
	keys := make([]string, 0, len(out.Plan.Fingerprint))
	for k := range out.Plan.Fingerprint {
		keys = append(keys, k)
	}
	preview := map[string]string{}
	for _, k := range reachableChanges(out, nil, keys) {
		preview[k] = out.Plan.Fingerprint[k]
	}
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
func (p Pipeline) journalBegin(out *Outcome, events ...*nostr.Event) (string, error) {
	if p.Journal == nil {
		return "", nil
	}
	entries := journalEntries(out, events...)
	if len(entries) == 0 {
		return "", nil
	}
	if err := p.Journal.Begin(entries); err != nil {
		return "", &Failure{Failure: failure.Failure{Code: KindJournal, Class: failure.Unexpected, Err: err, Msg: "cannot keep the signed events in the journal of unfinished writes before sending them, so nothing was published: " + err.Error(), Next: []suggest.Command{suggest.Roster("pending").Because("see the unfinished writes"),
			out.Intent.Suggest().Because("run the change again once the journal can be written")}}, Outcome: out}
	}
	out.Journal = entries[0].Event.ID
	return out.Journal, nil
}

// answered records each relay's OK of the write's seq-th event.
func (p Pipeline) answered(write string, seq int) func(relaypool.PublishReport) {
	if p.Journal == nil || write == "" {
		return nil
	}
	return func(r relaypool.PublishReport) {
		if r.OK {
			_ = p.Journal.Acked(write, seq, r.URL)
		}
	}
}

// journalEnd removes the change's entries once it was verified, or when
// none of its events can be stored anywhere (no relay was sent one, or
// every relay that was refused it); otherwise the entries stay and the
// failure says how to finish or drop the write.
func (p Pipeline) journalEnd(out *Outcome, err error) error {
	if p.Journal == nil || out == nil || out.Journal == "" {
		return err
	}
	if err == nil || !mayBeStored(out.StateDelivery) && !mayBeStored(out.Delivery) {
		_ = p.Journal.Finish(out.Journal)
		out.Journal = ""
		return err
	}
	if f, ok := err.(*Failure); ok {
		f.Journal = out.Journal
		f.Next = append(f.Next, PendingCommands(out.Journal)...)
	}
	return err
}

// PendingCommands offer finishing or dropping an unfinished write.
func PendingCommands(write string) []suggest.Command {
	return []suggest.Command{
		suggest.Roster("pending", "resume", short(write)).Because("recheck and send the same signed events to the relays that lack them"),
		suggest.Roster("pending", "discard", short(write)).Because("forget the unfinished write (what relays hold stays there)"),
	}
}

// short is a write's id as commands name it.
func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// mayBeStored reports whether some relay may hold the delivered event: it
// accepted it, or it was sent the EVENT and did not refuse it.
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

// memberWords are members as the journal keeps them: "<hex>:<status>".
func memberWords(ms []graph.Member) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.Pubkey+":"+m.Status)
	}
	return out
}
