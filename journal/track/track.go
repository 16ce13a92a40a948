// Package track carries one write's signed events through the journal of
// unfinished writes (package journal), the same way for every pipeline
// that signs (membership changes, state publication, repo init, and the
// NIP-SW, NIP-PC and NIP-29 writes):
//
//   - before signing, Check lists the unfinished writes of the coordinate
//     the write is about to change, and fails closed: a journal that
//     cannot be read is an error, never "no unfinished write";
//   - after signing and before the first relay is sent anything, Begin
//     keeps the signed events durably (an error stops the write);
//   - while sending, Write.Answered records each relay's OK;
//   - at the end, Write.End removes the entries when the write was
//     verified or none of its events can be stored anywhere (MayBeStored),
//     and otherwise keeps them, for `roster pending resume` or `discard`
//     (Commands).
//
// Preview is the fingerprint filter both repository pipelines keep in an
// entry: the events of the authors the write can be affected by.
package track

import (
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// The error codes every pipeline gives a journal that stops a write
// (docs/exit-codes.md, exit 1): Unreadable before signing (Check failed),
// Unwritable after signing and before sending (Begin failed).
const (
	CodeUnreadable = "journal-unreadable"
	CodeUnwritable = "journal-unwritable"
)

// Check lists the journal's unfinished writes that touch repository
// coordinate repo ("" when the write has none) or one of addresses, each
// with the relays known to hold its events (sources: event id to the
// relays a read returned it from; nil when none). A nil journal has none.
// It fails closed: when the journal cannot be read, or a file that cannot
// be read may belong to such a write, the error (*journal.UnreadableError,
// naming the file and the fix) must stop the write before it signs.
func Check(j *journal.Dir, sources map[string][]string, repo string, addresses ...string) ([]journal.Unfinished, error) {
	if j == nil {
		return nil, nil
	}
	writes, err := j.Touching(repo, addresses...)
	out := make([]journal.Unfinished, 0, len(writes))
	for _, w := range writes {
		out = append(out, journal.Unfinished{Write: w, Holding: w.Holding(sources)})
	}
	return out, err
}

// Write is one write kept in the journal from Begin to End. The zero
// Write (and a nil one) keeps nothing: every method does nothing.
type Write struct {
	j *journal.Dir
	// ID is the write's id (its first event's), "" when nothing is kept.
	ID string
}

// Begin keeps the entries of one write (its signed events, in the order
// they are sent) durably before the first is sent. A nil journal or no
// entries keeps nothing. An error means nothing may be sent: the caller
// refuses (exit 1, journal-unwritable) saying so.
func Begin(j *journal.Dir, entries []journal.Entry) (*Write, error) {
	if j == nil || len(entries) == 0 {
		return &Write{}, nil
	}
	if err := j.Begin(entries); err != nil {
		return &Write{}, err
	}
	return &Write{j: j, ID: entries[0].Event.ID}, nil
}

// Kept is the write id already in the journal (what a resume continues):
// nil journal or "" keeps nothing.
func Kept(j *journal.Dir, id string) *Write {
	if j == nil || id == "" {
		return &Write{}
	}
	return &Write{j: j, ID: id}
}

// Acked records that relay answered OK true to the write's seq-th event.
// The record only shortens what a later resume asks; an error is ignored
// (readers ask the relays which hold the event).
func (w *Write) Acked(seq int, relay string) {
	if w == nil || w.ID == "" {
		return
	}
	_ = w.j.Acked(w.ID, seq, relay)
}

// Answered is the relaypool.DeliverOptions.Answered of the write's seq-th
// event (nil when nothing is kept).
func (w *Write) Answered(seq int) func(relaypool.PublishReport) {
	if w == nil || w.ID == "" {
		return nil
	}
	return func(r relaypool.PublishReport) {
		if r.OK {
			w.Acked(seq, r.URL)
		}
	}
}

// End finishes the write: when it was verified, or no relay may hold any of
// its events, the entries are removed and End returns false; otherwise they
// stay and End returns true (the write is unfinished: say Commands(w.ID)).
func (w *Write) End(verified, mayBeStored bool) (kept bool) {
	if w == nil || w.ID == "" {
		return false
	}
	if verified || !mayBeStored {
		_ = w.j.Finish(w.ID)
		return false
	}
	return true
}

// MayBeStored reports whether some relay may hold an event of these
// deliveries: it accepted one, or it was sent the EVENT and did not answer,
// or it answered that it already had it.
func MayBeStored(ds ...*relaypool.Delivery) bool {
	for _, d := range ds {
		if d == nil {
			continue
		}
		for _, r := range d.Relays {
			if r.OK || r.Sent && !r.Replied || r.Replied && strings.HasPrefix(r.Message, "duplicate:") {
				return true
			}
		}
	}
	return false
}

// Commands offer finishing or dropping the unfinished write id.
func Commands(id string) []suggest.Command {
	return []suggest.Command{
		suggest.Roster("pending", "resume", Short(id)).Because("recheck and send the same signed events to the relays that lack them"),
		suggest.Roster("pending", "discard", Short(id)).Because("forget the unfinished write (what relays hold stays there)"),
	}
}

// Short is a write's id as commands name it.
func Short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// Reachable are the fingerprint keys ("<kind>:<pubkey>", and "5:<id>" for
// a deletion) of the authors a write of selected can be affected by: the
// selected author and everyone events reach from the seeds (graph.Reachable);
// a deletion counts as its deleter's. Keys are kept in order.
func Reachable(events []*nostr.Event, selected graph.Coordinate, keys []string, seeds ...string) []string {
	member := map[string]bool{selected.Pubkey: true}
	for _, pk := range graph.Reachable(events, selected, seeds...) {
		member[pk] = true
	}
	deleter := map[string]string{}
	for _, e := range events {
		if e.Kind == nostr.KindDeletion {
			deleter[e.ID] = e.PubKey
		}
	}
	var kept []string
	for _, k := range keys {
		kind, pk, _ := strings.Cut(k, ":")
		if kind == "5" {
			pk = deleter[pk]
		}
		if member[pk] {
			kept = append(kept, k)
		}
	}
	return kept
}

// Preview is the part of fingerprint (key to event id, as
// preflight.Fingerprint makes it) that an entry keeps for its resume's
// recheck: the keys Reachable keeps.
func Preview(fingerprint map[string]string, events []*nostr.Event, selected graph.Coordinate, seeds ...string) map[string]string {
	keys := make([]string, 0, len(fingerprint))
	for k := range fingerprint {
		keys = append(keys, k)
	}
	out := map[string]string{}
	for _, k := range Reachable(events, selected, keys, seeds...) {
		out[k] = fingerprint[k]
	}
	return out
}
