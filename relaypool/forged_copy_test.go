package relaypool_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/relaypool"
)

// Rule (signatures per copy): each relay's copy of an event is checked on
// its own. A hostile relay asked first serves every event with a signature
// that does not verify; the honest relay's valid copies still stand for
// their ids, only the honest relay is their source, and the hostile
// relay's report names what it forged. Deferred (discovery) and eager
// (Fetch) checks agree.
func TestAForgedCopyFromOneRelayNeverHidesAnotherRelaysValidCopy(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	hostile, honest := relays[0], relays[1]
	ann := announcement(t, "alice", "repo", 100)
	for _, r := range relays {
		if err := r.Publish(ann); err != nil {
			t.Fatal(err)
		}
	}
	hostile.SetMisbehaviour(devrelay.Misbehaviour{BadSignature: func(*nostr.Event) bool { return true }})
	urls := devrelay.URLs(relays)
	check := func(t *testing.T, res *relaypool.FetchResult) {
		t.Helper()
		if len(res.Events) != 1 || res.Events[0].ID != ann.ID {
			t.Fatalf("events %v, want Alice's announcement", res.Events)
		}
		if got := res.Sources[ann.ID]; !slices.Equal(got, []string{honest.URL()}) {
			t.Errorf("sources %v, want only the honest relay", got)
		}
		h := res.Relays[0]
		if h.URL != hostile.URL() || h.Events != 0 || h.Dropped != 1 || h.ForgedCount != 1 || !slices.Equal(h.Forged, []string{ann.ID}) {
			t.Errorf("hostile relay's report %+v, want the forged id counted and named", h)
		}
		if res.Relays[1].Forged != nil || res.Relays[1].Events != 1 {
			t.Errorf("honest relay's report %+v", res.Relays[1])
		}
	}
	t.Run("deferred", func(t *testing.T) {
		p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
		defer p.Close()
		p.DeferSignatures()
		res := p.Discover(context.Background(), urls, "repo")
		p.VerifyAuthors(res, []string{pub("alice")})
		check(t, res)
	})
	t.Run("eager", func(t *testing.T) {
		p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
		defer p.Close()
		check(t, p.Fetch(context.Background(), urls, relaypool.DiscoveryFilters("repo")...))
	})
}

// Rule (bound every cost an attacker controls): a relay that sends many
// copies of one id, each with another bad signature, costs one signature
// check for that id, not one per copy; the id is counted once for it.
func TestARelayCannotMakeOneIDCostASignatureCheckPerCopy(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	ann := announcement(t, "alice", "repo", 100)
	var copies []*nostr.Event
	for i := range 50 {
		c := *ann
		c.Sig = fmt.Sprintf("%0128x", i+1)
		copies = append(copies, &c)
	}
	relays[0].SetExtra(copies...)
	for _, deferred := range []bool{false, true} {
		p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
		var res *relaypool.FetchResult
		if deferred {
			p.DeferSignatures()
			res = p.Discover(context.Background(), devrelay.URLs(relays), "repo")
			p.VerifyAuthors(res, []string{pub("alice")})
		} else {
			res = p.Fetch(context.Background(), devrelay.URLs(relays), relaypool.DiscoveryFilters("repo")...)
		}
		if n := p.SignatureChecks(); n != 1 || len(res.Events) != 0 || res.Relays[0].ForgedCount != 1 {
			t.Errorf("deferred %v: %d signature checks, %d events, forged %d; want 1, 0, 1", deferred, n, len(res.Events), res.Relays[0].ForgedCount)
		}
		p.Close()
	}
}
