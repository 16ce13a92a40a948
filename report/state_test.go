package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/statepub"
	"github.com/roster-cli/roster/workspace/testkeys"
)

func stateView(t *testing.T, st *graph.State) *discovery.View {
	t.Helper()
	pk, _ := nostr.GetPublicKey(testkeys.Named("report-test-", "alice"))
	return &discovery.View{Selection: gitstate.Selection{Coordinate: graph.NewCoordinate(pk, "p")}, State: st, Offline: true}
}

// Rule (stable --json): roster.state/v1 outside a checkout has a null
// checkout, and with no resolved state a null state.
func TestStateReportOutsideACheckoutHasNullCheckoutAndState(t *testing.T) {
	v := stateView(t, nil)
	b, err := json.Marshal(StateFromView(v, nil))
	if err != nil {
		t.Fatal(err)
	}
	c := v.Coordinate()
	want := `{"schema":"roster.state/v1","coordinate":{"kind":30617,"pubkey":"` + c.Pubkey + `","npub":"` + graph.Npub(c.Pubkey) +
		`","identifier":"p","naddr":"` + gitstate.EncodeNaddr(c, nil) + `"},"complete":false,"state":null,"checkout":null,"git_servers":[]}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

// Rule: the state's author is an npub, and its refs are a copy.
func TestStateReportNamesTheAuthorByNpubAndCopiesTheRefs(t *testing.T) {
	pk, _ := nostr.GetPublicKey(testkeys.Named("report-test-", "bob"))
	refs := map[string]string{"refs/heads/main": "aa"}
	st := &graph.State{EventID: "e1", Author: pk, CreatedAt: 7, Head: "refs/heads/main", Refs: refs}
	rep := StateFromView(stateView(t, st), nil)
	if rep.State.Author != graph.Npub(pk) || rep.State.CreatedAt != 7 || rep.State.Refs["refs/heads/main"] != "aa" {
		t.Fatalf("%+v", rep.State)
	}
	rep.State.Refs["refs/heads/x"] = "bb"
	if len(refs) != 1 {
		t.Fatal("the report's refs alias the state's")
	}
}

// Rule: a checkout is aligned only when a state is resolved and nothing
// needs to change to match it.
func TestACheckoutIsAlignedOnlyWithAResolvedStateAndNothingToChange(t *testing.T) {
	resolved := &preflight.ResolvedState{EventID: "e1", Refs: map[string]string{"refs/heads/main": "aa"}}
	for _, tc := range []struct {
		name     string
		resolved *preflight.ResolvedState
		align    []preflight.RefAction
		want     bool
	}{
		{"matches", resolved, nil, true},
		{"no state", nil, nil, false},
		{"differs", resolved, []preflight.RefAction{{Action: "update", Ref: "refs/heads/main", From: "bb", To: "aa"}}, false},
	} {
		cmp := &statepub.Comparison{Dir: "/w", Remote: "origin", Resolved: tc.resolved,
			Alignment: preflight.CheckoutAlignment{Align: tc.align, Head: "main", Tracked: []string{"dev"}}}
		rep := StateFromView(stateView(t, nil), cmp)
		co := rep.Checkout
		if co.Aligned != tc.want || co.Dir != "/w" || co.Remote != "origin" || co.Head != "main" || len(co.Tracked) != 1 {
			t.Errorf("%s: %+v", tc.name, co)
		}
	}
}

// Rule (stable --json): roster.state-publish/v1 carries every list as []
// even when the pipeline failed before planning anything.
func TestStatePublishReportWithoutAnOutcomeHasEveryListEmpty(t *testing.T) {
	b, err := json.Marshal(StatePublishOf(nil, statepub.Options{DryRun: true}))
	if err != nil {
		t.Fatal(err)
	}
	for _, frag := range []string{`"schema":"roster.state-publish/v1"`, `"dry_run":true`, `"forced":false`, `"resolved":null`,
		`"changes":[]`, `"rewrites":[]`, `"tracked":[]`, `"availability":{}`, `"published":[]`, `"relays":[]`} {
		if !strings.Contains(string(b), frag) {
			t.Errorf("%s lacks %s", b, frag)
		}
	}
}

// Rule: an event counts as published when some relay accepted it; the
// signed event's id and date are the ones reported.
func TestStatePublishReportsTheEventAsPublishedOnceARelayAcceptedIt(t *testing.T) {
	evt := &nostr.Event{ID: "ev", CreatedAt: 500}
	o := &statepub.Outcome{Plan: &statepub.Plan{CreatedAt: 400, Head: "refs/heads/main", Refs: map[string]string{"refs/heads/main": "aa"}},
		Event: evt, Verified: true, Delivery: &relaypool.Delivery{Accepted: 1, Relays: []relaypool.Delivered{{URL: "wss://r", OK: true}}}}
	out := StatePublishOf(o, statepub.Options{})
	if out.Event.ID != "ev" || out.Event.CreatedAt != 500 || len(out.Published) != 1 || out.Published[0] != "ev" || !out.Verified || len(out.Relays) != 1 {
		t.Fatalf("%+v", out)
	}
	o.Delivery.Accepted = 0
	if out := StatePublishOf(o, statepub.Options{}); len(out.Published) != 0 {
		t.Fatalf("no relay accepted, published %v", out.Published)
	}
}
