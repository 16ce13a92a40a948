package statepub_test

import (
	"context"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/statepub"
)

// Rule (a publish that cannot be read back is not success): the relay
// stores the state and then never returns it; the publication is
// unverified (exit 6), not verified.
func TestAStateTheRelayDoesNotReturnIsUnverified(t *testing.T) {
	t.Parallel()
	s, p := newScene(t)
	s.relay.SetMisbehaviour(devrelay.Misbehaviour{Withhold: func(e *nostr.Event) bool {
		return e.Kind == graph.KindState && e.PubKey == s.alice
	}})
	out, err := p.Run(context.Background(), statepub.Options{})
	f := failure.Of(err)
	if f == nil || f.Code != statepub.CodeUnverified || f.Class != failure.Unverified {
		t.Fatalf("got %v (outcome %+v), want unverified", err, out)
	}
	if got := s.published(); len(got) != 1 {
		t.Fatalf("the relay keeps %d state events, want the one published", len(got))
	}
}

// Rule (an interrupt before anything was sent publishes nothing): the
// command's context ends between the plan and the recheck; the
// publication stops there with an error (the command tree names it
// `interrupted` from its context), nothing is signed, and the relay keeps
// no state.
func TestAnInterruptBeforeTheRecheckPublishesNoState(t *testing.T) {
	t.Parallel()
	s, p := newScene(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p.BeforeRecheck = cancel
	out, err := p.Run(ctx, statepub.Options{})
	if err == nil || out != nil {
		t.Fatalf("got %+v, %v; want the publication stopped", out, err)
	}
	if got := s.published(); len(got) != 0 {
		t.Fatalf("the relay keeps %d state events after an interrupt before sending", len(got))
	}
}
