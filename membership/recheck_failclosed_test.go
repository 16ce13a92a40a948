package membership

import (
	"context"
	"errors"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
)

// Rule (fail closed: anything that changed since the preview aborts
// before signing): a recheck whose read carries no relay's answer (a read
// from the cache alone) compared nothing with the preview, so it is not a
// recheck that found nothing changed: the change stops (incomplete, exit
// 4) before signing, and nothing is published.
func TestARecheckWithNoRelayAnswerToCompareStopsTheChange(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	p := w.pipeline(t)
	p.Read = readFuncs{load: w.view, again: func(ctx context.Context, _ *discovery.View, _ ...nostr.Filter) (*discovery.View, error) {
		v, err := w.view(ctx)
		v.Fetch = nil
		return v, err
	}}
	_, err := p.Run(context.Background(), addBob(t), false)
	var f *Failure
	if !errors.As(err, &f) || f.Code != KindInconsistentRead || f.Class != failure.Incomplete {
		t.Fatalf("%v, want an incomplete inconsistent-read", err)
	}
	if len(w.published) != 0 {
		t.Fatalf("published %d events after a recheck that compared nothing", len(w.published))
	}
}
