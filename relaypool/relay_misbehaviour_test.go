package relaypool_test

import (
	"context"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/relaypool"
)

// Rule (per-relay event counts): a relay that sends one event twice
// returned one event; it is counted and sourced once.
func TestFetchCountsAnEventARelayRepeatsOnce(t *testing.T) {
	ann := announcement(t, "alice", "repo", 100)
	url := scriptedRelay(t, func(sub string) []string {
		return []string{eventMsg(t, sub, ann), eventMsg(t, sub, ann), eoseMsg(sub)}
	})
	p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer p.Close()
	res := p.Fetch(context.Background(), []string{url}, nostr.Filter{Kinds: []int{30617}})
	if !res.Complete || len(res.Events) != 1 {
		t.Fatalf("complete %v, %d events", res.Complete, len(res.Events))
	}
	if rep := res.Relays[0]; rep.Events != 1 {
		t.Errorf("report %+v, want 1 event", rep)
	}
	if got := res.Sources[ann.ID]; len(got) != 1 {
		t.Errorf("Sources %v, want the relay once", got)
	}
}

// Events a relay sends after its EOSE are not part of the answer to the
// REQ asked, and events for another subscription id are not either.
func TestFetchIgnoresEventsAfterEOSEAndForOtherSubscriptions(t *testing.T) {
	early := announcement(t, "alice", "repo", 100)
	stray := announcement(t, "bob", "repo", 100)
	late := announcement(t, "carol", "repo", 100)
	url := scriptedRelay(t, func(sub string) []string {
		return []string{eventMsg(t, sub, early), eventMsg(t, "someone-else", stray), eoseMsg(sub), eventMsg(t, sub, late)}
	})
	p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer p.Close()
	res := p.Fetch(context.Background(), []string{url}, nostr.Filter{Kinds: []int{30617}})
	if len(res.Events) != 1 || res.Events[0].ID != early.ID {
		t.Fatalf("events %v, want only the one sent before EOSE on this subscription", res.Events)
	}
}

// Rule (per-relay status: closed, with the relay's reason): a relay that refuses with CLOSED for any
// reason other than auth-required is closed with its own words, and the
// result is incomplete; what it sent before refusing was verified and kept.
func TestFetchReportsARelaysOwnClosedReason(t *testing.T) {
	ann := announcement(t, "alice", "repo", 100)
	url := scriptedRelay(t, func(sub string) []string {
		return []string{eventMsg(t, sub, ann), `["CLOSED",` + mustJSON(sub) + `,"error: too many tags in filter"]`}
	})
	p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second, Auth: signer("alice")})
	defer p.Close()
	res := p.Fetch(context.Background(), []string{url}, nostr.Filter{Kinds: []int{30617}})
	rep := res.Relays[0]
	if res.Complete || rep.Status != relaypool.StatusClosed || rep.Reason != "error: too many tags in filter" {
		t.Fatalf("complete %v, report %+v; want closed with the relay's reason", res.Complete, rep)
	}
	if len(res.Events) != 1 || rep.Events != 1 {
		t.Fatalf("%d events kept, report %+v; want the one verified event", len(res.Events), rep)
	}
}

// A relay that only sends NOTICEs and never EOSE is a timeout, not an answer.
func TestFetchRelayThatOnlySendsNoticesTimesOut(t *testing.T) {
	url := scriptedRelay(t, func(string) []string { return []string{`["NOTICE","busy"]`} })
	p := relaypool.New(relaypool.Options{Timeout: 300 * time.Millisecond})
	defer p.Close()
	res := p.Fetch(context.Background(), []string{url}, nostr.Filter{Kinds: []int{30617}})
	if res.Complete || res.Relays[0].Status != relaypool.StatusTimeout {
		t.Fatalf("complete %v, report %+v; want timeout", res.Complete, res.Relays[0])
	}
}

// A message the pool cannot parse is skipped; the answer around it counts.
func TestFetchSkipsUnparseableMessages(t *testing.T) {
	ann := announcement(t, "alice", "repo", 100)
	url := scriptedRelay(t, func(sub string) []string {
		return []string{`not json`, `["EVENT",` + mustJSON(sub) + `,{"id":7}]`, `["WHAT"]`, eventMsg(t, sub, ann), eoseMsg(sub)}
	})
	p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer p.Close()
	res := p.Fetch(context.Background(), []string{url}, nostr.Filter{Kinds: []int{30617}})
	if !res.Complete || len(res.Events) != 1 || res.Events[0].ID != ann.ID {
		t.Fatalf("complete %v, events %v, report %+v", res.Complete, res.Events, res.Relays[0])
	}
}
