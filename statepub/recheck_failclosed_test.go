package statepub_test

import (
	"context"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/statepub"
)

// answerless is a real read whose re-asks come back without the relays'
// answers (View.Fetch): what a read from the cache alone gives.
type answerless struct{ discovery.Query }

func (q answerless) Again(ctx context.Context, prev *discovery.View, now int64, also ...nostr.Filter) (*discovery.View, error) {
	v, err := q.Query.Again(ctx, prev, now, also...)
	if v != nil {
		v.Fetch = nil
	}
	return v, err
}

// Rule (fail closed: anything that changed since the preview aborts
// before signing): a recheck whose read has no relay answer to compare
// with the plan compared nothing, so it is not a recheck that found
// nothing changed: the publication stops (incomplete, exit 4), nothing is
// published, and no outcome claims it was rechecked.
func TestARecheckThatCouldNotCompareStopsThePublication(t *testing.T) {
	t.Parallel()
	s, p := newScene(t)
	p.Read = answerless{p.Read.(discovery.Query)}
	out, err := p.Run(context.Background(), statepub.Options{})
	f := failure.Of(err)
	if f == nil || f.Class != failure.Incomplete || f.Code != statepub.CodeInconsistentRead {
		t.Fatalf("got %v (outcome %+v), want an incomplete inconsistent-read", err, out)
	}
	if got := s.published(); len(got) != 0 {
		t.Fatalf("the relay keeps %d state events, want none: a recheck that compared nothing published", len(got))
	}
}

// Rule (the evidence line says what was done): a publication whose
// recheck compared the relays' answers with the preview says so in its
// outcome; a dry run, which rechecks nothing, does not.
func TestOnlyAComparedRecheckIsReportedAsRechecked(t *testing.T) {
	t.Parallel()
	_, p := newScene(t)
	dry, err := p.Run(context.Background(), statepub.Options{DryRun: true})
	if err != nil || dry.Rechecked {
		t.Fatalf("dry run: rechecked %v, err %v; want not rechecked", dry != nil && dry.Rechecked, err)
	}
	out, err := p.Run(context.Background(), statepub.Options{})
	if err != nil || !out.Rechecked || !out.Verified {
		t.Fatalf("publish: %+v %v; want rechecked and verified", out, err)
	}
}
