package sections

import (
	"context"
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
)

// FetchFunc asks the relay for the owner's projection (kind 30623, d=owner,
// authors=[relay self]) over an authenticated connection. A non-nil error
// means the relay did not answer completely (outage, timeout, CLOSED).
type FetchFunc func(ctx context.Context) ([]*nostr.Event, error)

// ProjectionStore persists verified projection events (cache.Store fits).
// Projection returns nil, nil when nothing is stored under key.
type ProjectionStore interface {
	PutProjection(key string, evt *nostr.Event) error
	Projection(key string) (*nostr.Event, error)
}

// SyncInput names one reader's view of one workspace.
type SyncInput struct {
	Owner     string
	RelaySelf string // the relay's NIP-11 self
	CacheKey  string // community/owner/reader: envelopes differ per reader
	// Reader is whose copy this is: it also admits Buzz's d=<owner>:<reader>
	// (VerifyProjectionFor); "" admits only d=<owner>.
	Reader string
	Fetch  FetchFunc
	Store  ProjectionStore
}

// SyncResult is the projection to show and how it was obtained.
type SyncResult struct {
	Verified *VerifiedProjection
	// Decision is the revision rule applied to what the relay returned.
	Decision RevisionDecision
	// Refetched is true when a revision gap triggered a full refetch.
	Refetched bool
	// Stale is true when the relay could not be reached and the cached
	// projection is shown instead; it must not become the basis of a write.
	Stale bool
	// FetchErr is why the relay could not be read (when Stale).
	FetchErr error
	// Rejected lists fetched events that failed verification (a forged
	// signer, a project-state event, bad content): never shown, never cached.
	Rejected []error
}

// ErrStaleBasis refuses to build a write from a cached projection.
var ErrStaleBasis = errors.New("the relay could not be reached, so this workspace view is a stale cached projection; a write needs the relay's current projection: retry when the relay answers")

// ErrNoProjection means the relay answered but showed no valid projection to
// this reader: no workspace yet, no grant, or a revoked grant.
var ErrNoProjection = errors.New("the relay shows you no workspace projection for this owner (not imported yet, not granted to you, or revoked)")

// WriteBasis returns ErrStaleBasis when the result may only be displayed.
func (r *SyncResult) WriteBasis() error {
	if r.Stale {
		return ErrStaleBasis
	}
	return nil
}

// Sync applies the spec's client rules: verify everything, decide by
// revision against the cached projection, refetch fully on a gap, persist only
// verified projections, fall back to the cache (marked stale) on outage.
func Sync(ctx context.Context, in SyncInput) (*SyncResult, error) {
	var cached *VerifiedProjection
	if in.Store != nil {
		if evt, err := in.Store.Projection(in.CacheKey); err == nil && evt != nil {
			// Re-verify: a cached projection signed by a previous relay key
			// is no longer trusted.
			if v, err := VerifyProjectionFor(evt, in.RelaySelf, in.Owner, in.Reader); err == nil {
				cached = v
			}
		}
	}
	res := &SyncResult{}
	best, err := fetchBest(ctx, in, res)
	if err != nil {
		if cached == nil {
			return nil, fmt.Errorf("read workspace projection: %w", err)
		}
		res.Verified, res.Stale, res.FetchErr = cached, true, err
		return res, nil
	}
	if best == nil {
		if len(res.Rejected) > 0 {
			return nil, fmt.Errorf("%w; rejected: %v", ErrNoProjection, errors.Join(res.Rejected...))
		}
		return nil, ErrNoProjection
	}
	var cachedRev int64
	if cached != nil {
		cachedRev = cached.Projection.Revision
	}
	res.Decision = DecideRevision(cached != nil, cachedRev, best.Projection.Revision)
	switch res.Decision {
	case DecisionIgnore:
		res.Verified = cached
		return res, nil
	case DecisionRefetch:
		res.Refetched = true
		again, err := fetchBest(ctx, in, res)
		if err != nil {
			res.Verified, res.Stale, res.FetchErr = cached, true, err
			return res, nil
		}
		if again == nil || again.Projection.Revision < best.Projection.Revision {
			return nil, fmt.Errorf("full refetch after a revision gap (%d -> %d) returned no projection at least as new", cachedRev, best.Projection.Revision)
		}
		best = again
	}
	if in.Store != nil {
		if err := in.Store.PutProjection(in.CacheKey, best.Event); err != nil {
			return nil, fmt.Errorf("cache verified projection: %w", err)
		}
	}
	res.Verified = best
	return res, nil
}

func fetchBest(ctx context.Context, in SyncInput, res *SyncResult) (*VerifiedProjection, error) {
	events, err := in.Fetch(ctx)
	if err != nil {
		return nil, err
	}
	var best *VerifiedProjection
	for _, evt := range events {
		v, err := VerifyProjectionFor(evt, in.RelaySelf, in.Owner, in.Reader)
		if err != nil {
			res.Rejected = append(res.Rejected, fmt.Errorf("event %s: %w", evt.ID, err))
			continue
		}
		if best == nil || v.Projection.Revision > best.Projection.Revision {
			best = v
		}
	}
	return best, nil
}
