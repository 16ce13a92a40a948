package devrelay_test

import (
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/reference"
	"github.com/roster-cli/roster/graph"
)

// startDemoRelay is a relay with the authorities `roster dev relay` runs.
func startDemoRelay(t *testing.T) *devrelay.Relay {
	return devrelay.StartN(t, 1, devrelay.Options{Authorities: reference.Authorities()})[0]
}

// The demo must be the repository the issue describes, resolved by the real
// graph: a lead, a confirmed co-maintainer, a pending invitation, a removed
// maintainer, a moderator and a state event.
func TestSeedDemoIsARealisticLeadShapedRepository(t *testing.T) {
	r := startDemoRelay(t)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	info, err := devrelay.SeedDemo(r, now)
	if err != nil {
		t.Fatal(err)
	}
	pk := map[string]string{}
	for _, p := range info.People {
		pk[p.Name] = p.Pubkey
		if want, _ := nostr.GetPublicKey(devrelay.DemoKey(p.Name)); p.Pubkey != want {
			t.Fatalf("%s's key is not derived from the name", p.Name)
		}
	}
	stored := r.Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement, graph.KindState}, Tags: nostr.TagMap{"d": {devrelay.DemoIdentifier}}})
	if len(stored) != 5 || len(info.Events) < 5 {
		t.Fatalf("stored %d demo events, want 4 announcements and 1 state", len(stored))
	}
	for _, e := range stored {
		if ok, _ := e.CheckSignature(); !ok || !e.CheckID() {
			t.Fatalf("demo event %s is not validly signed", e.ID)
		}
	}
	res := graph.Resolve(stored, info.Coordinate, now.Unix(), graph.Options{})
	if res.Lead != pk["alice"] || res.LeadSource != graph.LeadExplicit {
		t.Errorf("lead %s (%s), want alice explicit", res.Lead, res.LeadSource)
	}
	status := map[string]string{}
	for _, m := range res.Maintainers {
		status[m.Pubkey] = m.Status
	}
	want := map[string]string{pk["alice"]: "confirmed", pk["bob"]: "confirmed", pk["carol"]: "invited"}
	if len(status) != len(want) {
		t.Errorf("maintainers %v, want alice and bob confirmed, carol invited (dave removed)", res.Maintainers)
	}
	for k, v := range want {
		if status[k] != v {
			t.Errorf("maintainer %s: %q, want %q", k[:8], status[k], v)
		}
	}
	if len(res.Moderators) != 1 || res.Moderators[0].Pubkey != pk["erin"] || res.Moderators[0].Status != "confirmed" {
		t.Errorf("moderators %v, want erin confirmed", res.Moderators)
	}
	// The removed maintainer is history, not absence: dave's m ended with a
	// signed boundary, and dave authors nothing now.
	removed := false
	for _, h := range res.History {
		if h.Pubkey == pk["dave"] && h.Role == "m" && len(h.Intervals) > 0 && h.Intervals[len(h.Intervals)-1].End == graph.EndSigned {
			removed = true
		}
	}
	if !removed || res.AuthorizedNow(pk["dave"], graph.ActionStatus) {
		t.Errorf("dave is not shown as a removed maintainer: history %+v", res.History)
	}
	states := 0
	for _, e := range stored {
		if e.Kind == graph.KindState && e.PubKey == pk["alice"] {
			states++
		}
	}
	if states != 1 {
		t.Errorf("%d state events by the lead, want 1", states)
	}
	for _, f := range res.Health {
		if f.Severity == "error" {
			t.Errorf("demo has a health error: %+v", f)
		}
	}
	for _, e := range stored {
		if e.Kind != graph.KindAnnouncement {
			continue
		}
		a, err := graph.ParseAnnouncement(e)
		if err != nil {
			t.Fatal(err)
		}
		if missing, extra, ok := graph.ProjectionDiff(a); !ok {
			t.Errorf("%s's maintainers projection is off: missing %v extra %v", e.PubKey[:8], missing, extra)
		}
	}
	prefix, v, err := nip19.Decode(info.Naddr)
	if err != nil || prefix != "naddr" {
		t.Fatalf("naddr %q: %v", info.Naddr, err)
	}
	ptr := v.(nostr.EntityPointer)
	if ptr.PublicKey != pk["alice"] || ptr.Identifier != devrelay.DemoIdentifier || ptr.Kind != 30617 || len(ptr.Relays) != 1 || ptr.Relays[0] != r.URL() {
		t.Errorf("naddr points at %+v", ptr)
	}
}

// Without the NIP-SW, NIP-PC and NIP-29 authorities nothing the demo's
// workspace, project and group need would materialize: SeedDemo says so.
func TestSeedDemoNeedsTheRelayAuthorities(t *testing.T) {
	r := devrelay.StartN(t, 1, devrelay.Options{})[0]
	if _, err := devrelay.SeedDemo(r, time.Now()); err == nil || !strings.Contains(err.Error(), "no authority for kind") {
		t.Fatalf("seeding a relay without authorities: %v", err)
	}
}
