package report

import (
	"time"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
)

// PendingSchema is `roster pending --json`; PendingResumeSchema `roster
// pending resume --json`, PendingDiscardSchema `roster pending discard
// --json`.
const (
	PendingSchema        = "roster.pending/v1"
	PendingResumeSchema  = "roster.pending-resume/v1"
	PendingDiscardSchema = "roster.pending-discard/v1"
)

// Pending lists the journal's unfinished writes.
type Pending struct {
	Schema string         `json:"schema"`
	Writes []PendingWrite `json:"writes"`
	// Unreadable are journal files that are not valid entries (never sent).
	Unreadable []PendingProblem `json:"unreadable"`
	// Checked: the relays were asked which hold each event (false with
	// --offline: holding is then what the journal recorded).
	Checked bool `json:"checked"`
}

// PendingWrite is one unfinished write.
type PendingWrite struct {
	ID       string `json:"id"`
	Pipeline string `json:"pipeline"`
	// Command is the command that made it ("roster repo edit --add npub1…").
	Command []string `json:"command"`
	// Repository is the coordinate ("30617:<hex>:<identifier>"; for a
	// workspace import "nip-sw:<community>:<owner>").
	Repository string         `json:"repository"`
	Signed     time.Time      `json:"signed"`
	Events     []PendingEvent `json:"events"`
	// Awaits is the verification the write awaits, in words.
	Awaits string `json:"awaits"`
	// Complete: every event of the write is in the journal.
	Complete bool `json:"complete"`
}

// PendingEvent is one signed event of an unfinished write.
type PendingEvent struct {
	ID        string `json:"id"`
	Kind      int    `json:"kind"`
	Author    string `json:"author"`
	CreatedAt int64  `json:"created_at"`
	Address   string `json:"address"`
	// Relays it must reach; Holding those known to hold it; Lacking the
	// rest.
	Relays  []string `json:"relays"`
	Holding []string `json:"holding"`
	Lacking []string `json:"lacking"`
	// Expired: older than the acceptance window; it is never sent again.
	Expired bool `json:"expired"`
}

// PendingProblem is a journal file that is not a valid entry.
type PendingProblem struct {
	File    string `json:"file"`
	Problem string `json:"problem"`
}

// PendingWriteOf renders w with holding (event id to relays; nil: what the
// journal recorded as acknowledged).
func PendingWriteOf(w journal.Write, holding map[string][]string, now time.Time) PendingWrite {
	if holding == nil {
		holding = w.Holding(nil)
	}
	first := w.First()
	out := PendingWrite{ID: w.ID, Pipeline: first.Pipeline, Command: append([]string{"roster"}, first.Command...),
		Repository: first.Repo, Signed: first.Signed, Awaits: w.Entries[len(w.Entries)-1].Verify.What,
		Complete: w.Complete(), Events: []PendingEvent{}}
	for _, e := range w.Entries {
		rels := relaypool.NormalizeRelays(e.Relays)
		h := append([]string{}, holding[e.Event.ID]...)
		lacking := []string{}
		for _, u := range rels {
			found := false
			for _, x := range h {
				found = found || x == u
			}
			if !found {
				lacking = append(lacking, u)
			}
		}
		out.Events = append(out.Events, PendingEvent{ID: e.Event.ID, Kind: e.Event.Kind, Author: graph.Npub(e.Event.PubKey),
			CreatedAt: int64(e.Event.CreatedAt), Address: e.Address, Relays: append([]string{}, rels...), Holding: h,
			Lacking: lacking, Expired: journal.Expired(e.Event, now)})
	}
	return out
}

// PendingResume is what `roster pending resume` did.
type PendingResume struct {
	Schema string       `json:"schema"`
	Write  PendingWrite `json:"write"`
	// Sent maps each event id sent again to each relay's answer.
	Sent     map[string][]relaypool.Delivered `json:"sent"`
	Verified bool                             `json:"verified"`
}

// PendingDiscard is what `roster pending discard` removed.
type PendingDiscard struct {
	Schema    string       `json:"schema"`
	Discarded PendingWrite `json:"discarded"`
}
