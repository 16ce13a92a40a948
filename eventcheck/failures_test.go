package eventcheck_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/eventcheck"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

func key(t *testing.T, name string) (secret, pubkey string) {
	t.Helper()
	sum := sha256.Sum256([]byte("eventcheck test " + name))
	secret = hex.EncodeToString(sum[:])
	pubkey, err := nostr.GetPublicKey(secret)
	if err != nil {
		t.Fatal(err)
	}
	return secret, pubkey
}

// pipelineOn is the check against one in-process relay, which also holds
// the repositories it resolves (the user's one relay, pinned).
func pipelineOn(relay *devrelay.Relay) eventcheck.Pipeline {
	return eventcheck.Pipeline{
		Relays: []string{relay.URL()},
		Source: discovery.Source{Relays: []string{relay.URL()}, Pinned: true,
			Pool: func() *relaypool.Pool { return relaypool.New(relaypool.Options{Timeout: 5 * time.Second}) }},
		Now: time.Now,
	}
}

// Rule: what the check could not establish is the one failure type with
// its class: an event no relay holds is incomplete (exit 4, the relays'
// answers in details, a --relay rerun next); an event that is no action
// is usage (exit 2); a state event without a --repo is usage with code
// no-coordinate and the --repo rerun.
func TestTheCheckEventPipelineFailsWithClassedFailures(t *testing.T) {
	relay, err := devrelay.New(devrelay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := relay.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(relay.Close)
	sk, _ := key(t, "alice")
	note := &nostr.Event{Kind: 1, CreatedAt: 100, Content: "hello"}
	state := &nostr.Event{Kind: 30618, CreatedAt: 100, Tags: nostr.Tags{{"d", "widgets"}, {"HEAD", "ref: refs/heads/main"}}}
	for _, e := range []*nostr.Event{note, state} {
		if err := e.Sign(sk); err != nil {
			t.Fatal(err)
		}
		if err := relay.Publish(e); err != nil {
			t.Fatal(err)
		}
	}
	missing := strings.Repeat("ab", 32)
	p := pipelineOn(relay)
	ctx := context.Background()
	results := p.CheckMany(ctx, []eventcheck.Ref{{ID: missing}, {ID: note.ID}, {ID: state.ID}})

	f := failure.Of(results[0].Err)
	var inc *eventcheck.Incomplete
	if f == nil || f.Class != failure.Incomplete || f.Code != "incomplete" || !asIncomplete(results[0].Err, &inc) || inc.Fetch == nil {
		t.Fatalf("missing event: %#v, want an incomplete failure", results[0].Err)
	}
	if f.Details["event"] != missing || len(f.Details["relays"].([]map[string]any)) != 1 || len(f.Next) != 1 || !f.Next[0].Has("--relay") {
		t.Fatalf("missing event: details %v next %v", f.Details, f.Next)
	}
	f = failure.Of(results[1].Err)
	if f == nil || f.Class != failure.Usage || f.Code != "usage" || f.Details["kind"] != 1 || !strings.Contains(f.Msg, "is kind 1, not a status") {
		t.Fatalf("kind 1 note: %#v, want a usage failure naming its kind", results[1].Err)
	}
	f = failure.Of(results[2].Err)
	if f == nil || f.Class != failure.Usage || f.Code != "no-coordinate" || f.Details["identifier"] != "widgets" || len(f.Next) != 1 || !f.Next[0].Has("--repo") {
		t.Fatalf("state event: %#v, want no-coordinate with the --repo rerun", results[2].Err)
	}
}

func asIncomplete(err error, into **eventcheck.Incomplete) bool {
	i, ok := err.(*eventcheck.Incomplete)
	*into = i
	return ok
}

// Rule (the pipeline reads the repository itself): a status by the lone
// maintainer of the repository its `a` tag names is authorized; the check
// resolved that repository through discovery on the relay it was given.
func TestTheCheckEventPipelineResolvesTheRepositoryItNames(t *testing.T) {
	relay, err := devrelay.New(devrelay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := relay.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(relay.Close)
	sk, pk := key(t, "alice")
	ann := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 50,
		Tags: nostr.Tags{{"d", "widgets"}, {"name", "Widgets"}, {"M", pk}, {"maintainers", pk}}}
	status := &nostr.Event{Kind: 1631, CreatedAt: 100, Tags: nostr.Tags{{"e", strings.Repeat("cd", 32), "", "root"}, {"a", "30617:" + pk + ":widgets"}}}
	for _, e := range []*nostr.Event{ann, status} {
		if err := e.Sign(sk); err != nil {
			t.Fatal(err)
		}
		if err := relay.Publish(e); err != nil {
			t.Fatal(err)
		}
	}
	v, err := pipelineOn(relay).Check(context.Background(), eventcheck.Ref{ID: status.ID})
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	if !v.Authorized || v.View == nil || v.Coordinate != graph.NewCoordinate(pk, "widgets") || v.View.Resolution.Lead != pk {
		t.Fatalf("verdict %+v, want alice's status authorized by the repository she leads", v)
	}
}
