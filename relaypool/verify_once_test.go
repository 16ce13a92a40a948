package relaypool_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/relaypool"
)

// docs/architecture.md "Reading a repository", step 3 (every event is
// signature-checked) at the cost of one
// check per event: three relays answering the same events at the same time
// cost one signature check per (id, sig), not three.
func TestFetchChecksEachSignatureOnceWhenThreeRelaysAnswerAtOnce(t *testing.T) {
	relays := devrelay.StartN(t, 3, devrelay.Options{})
	const n = 20
	for i := range n {
		ann := announcement(t, fmt.Sprintf("m%02d", i), "repo", 100)
		for _, r := range relays {
			if err := r.Publish(ann); err != nil {
				t.Fatal(err)
			}
		}
	}
	p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer p.Close()
	res := p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{30617}, Tags: nostr.TagMap{"d": {"repo"}}})
	if !res.Complete || len(res.Events) != n {
		t.Fatalf("complete %v, %d events, want %d", res.Complete, len(res.Events), n)
	}
	if got := p.SignatureChecks(); got != n {
		t.Fatalf("%d signature checks for %d distinct events from 3 relays, want %d", got, n, n)
	}
	proofs := res.Verified(res.Events)
	if len(proofs) != n {
		t.Fatalf("%d proofs of verification for %d events", len(proofs), n)
	}
	for i, v := range proofs {
		if v.Event() != res.Events[i] || !v.Valid() {
			t.Fatalf("proof %d does not vouch for event %d", i, i)
		}
	}
}

// Only events the relays sent and the pool checked get a proof: a look-alike
// the caller made itself (same id, another object) gets none.
func TestFetchResultVouchesOnlyForTheEventsItChecked(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	ann := announcement(t, "alice", "repo", 100)
	if err := relays[0].Publish(ann); err != nil {
		t.Fatal(err)
	}
	p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer p.Close()
	res := p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{30617}})
	lookalike := *res.Events[0]
	if got := res.Verified([]*nostr.Event{&lookalike, nil}); len(got) != 0 {
		t.Fatalf("%d proofs for events the pool never checked", len(got))
	}
}
