package statepub_test

import (
	"context"
	"testing"
	"time"

	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/statepub"
)

// Rule (fail closed: anything that changed since the preview aborts
// before signing): a recheck that cannot read the relays again (the
// repository read from the cache alone, with no relay answer to compare)
// compared nothing, so it is not a recheck that found nothing changed:
// the publication stops (incomplete, exit 4), nothing is published, and
// no outcome claims it was rechecked.
func TestARecheckThatCouldNotCompareStopsThePublication(t *testing.T) {
	t.Parallel()
	s, p := newScene(t)
	dir := t.TempDir()
	open := func() (*cache.Cache, error) { return cache.Open(dir) }
	online := s.src
	online.OpenCache = open
	if _, err := discovery.Load(context.Background(), online, s.sel, s.co, discovery.Complete, s.alice, time.Now().Unix()); err != nil {
		t.Fatalf("filling the cache: %v", err)
	}
	offline := s.src
	offline.Offline, offline.OpenCache = true, open
	p.Discover = func(ctx context.Context) (*discovery.View, error) {
		return discovery.Load(ctx, offline, s.sel, s.co, discovery.Partial, s.alice, time.Now().Unix())
	}
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
