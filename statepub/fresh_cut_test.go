package statepub_test

import (
	"context"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/statepub"
)

// slowSigner takes its time, as a bunker on a slow link does: meanwhile
// runs first (another machine publishes), and the signature comes more
// than CutWindow after the recheck's answers.
type slowSigner struct {
	signer.Signer
	meanwhile func(being *nostr.Event)
}

func (s slowSigner) SignEvent(ctx context.Context, e *nostr.Event) error {
	s.meanwhile(e)
	// The latency is the scenario, not a wait for something to happen.
	time.Sleep(2 * statepub.CutWindow)
	return s.Signer.SignEvent(ctx, e)
}

// Rule (the cut is still fresh when the state is sent, as for a membership
// change): when the cut is older than CutWindow by the time the event is
// to be sent, the relays are asked again first, and a state that landed
// meanwhile stops the publication as a concurrent change (refused, exit
// 3). Here Alice's other machine published a state a second older than
// this one: sent, this one would replace it on the relay (one version per
// address) and the confirmation afterwards would never see it.
func TestAStateThatLandedWhileTheSignerWorkedStopsThePublication(t *testing.T) {
	t.Parallel()
	s, p := newScene(t)
	var theirs *nostr.Event
	p.Signer = slowSigner{Signer: p.Signer, meanwhile: func(being *nostr.Event) {
		theirs = s.other(t, int64(being.CreatedAt)-1)
	}}
	out, err := p.Run(context.Background(), statepub.Options{})
	f := failure.Of(err)
	if f == nil || f.Code != statepub.CodeConcurrentChange || f.Class != failure.Refused {
		t.Fatalf("got %v (outcome %+v), want a refused concurrent-change before the send", err, out)
	}
	if got := s.published(); len(got) != 1 || got[0].ID != theirs.ID {
		var ids []string
		for _, e := range got {
			ids = append(ids, e.ID)
		}
		t.Fatalf("the relay keeps the states %v, want only the one published meanwhile (%s)", ids, theirs.ID)
	}
}
