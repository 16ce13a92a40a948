package sections

import (
	"context"
	"errors"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/strictjson"
)

type memStore map[string]*nostr.Event

func (m memStore) PutProjection(key string, evt *nostr.Event) error { m[key] = evt; return nil }
func (m memStore) Projection(key string) (*nostr.Event, error)      { return m[key], nil }

// relayFake serves whatever projections a test sets and counts fetches.
type relayFake struct {
	events []*nostr.Event
	err    error
	calls  int
	// after the first call, serve these instead (a refetch sees newer state)
	then []*nostr.Event
}

func (r *relayFake) fetch(context.Context) ([]*nostr.Event, error) {
	r.calls++
	if r.err != nil {
		return nil, r.err
	}
	if r.calls > 1 && r.then != nil {
		return r.then, nil
	}
	return r.events, nil
}

func revisionEvent(t *testing.T, relay testKey, owner string, rev int64) *nostr.Event {
	t.Helper()
	p := &Projection{Version: 1, OwnerPubkey: owner, Revision: rev, LayoutRevision: 1, KeyEpoch: 1, ReaderKeyEnvelope: "env",
		Sections: []ProjectedSection{}, Assignments: []ProjectedAssignment{}}
	body, err := strictjson.Canonical(p)
	if err != nil {
		t.Fatal(err)
	}
	return projectionEvent(t, relay, owner, body)
}

func syncWith(t *testing.T, relay testKey, owner string, store memStore, fake *relayFake) (*SyncResult, error) {
	t.Helper()
	return Sync(context.Background(), SyncInput{Owner: owner, RelaySelf: relay.pk, CacheKey: "k", Fetch: fake.fetch, Store: store})
}

func TestSyncAcceptsFirstAndNextRevisionAndPersists(t *testing.T) {
	relay, owner := newKey(t), newKey(t)
	store := memStore{}
	fake := &relayFake{events: []*nostr.Event{revisionEvent(t, relay, owner.pk, 4)}}
	res, err := syncWith(t, relay, owner.pk, store, fake)
	if err != nil || res.Decision != DecisionAccept || res.Verified.Projection.Revision != 4 || store["k"] == nil {
		t.Fatalf("%+v %v", res, err)
	}
	fake.events = []*nostr.Event{revisionEvent(t, relay, owner.pk, 5)}
	res, err = syncWith(t, relay, owner.pk, store, fake)
	if err != nil || res.Decision != DecisionAccept || res.Verified.Projection.Revision != 5 || res.Refetched {
		t.Fatalf("%+v %v", res, err)
	}
}

// "A projection at or below the cached revision is ignored."
func TestSyncIgnoresStaleProjection(t *testing.T) {
	relay, owner := newKey(t), newKey(t)
	store := memStore{"k": revisionEvent(t, relay, owner.pk, 4)}
	fake := &relayFake{events: []*nostr.Event{revisionEvent(t, relay, owner.pk, 3)}}
	res, err := syncWith(t, relay, owner.pk, store, fake)
	if err != nil || res.Decision != DecisionIgnore || res.Verified.Projection.Revision != 4 {
		t.Fatalf("%+v %v", res, err)
	}
	if rev := mustRev(t, relay, owner.pk, store["k"]); rev != 4 {
		t.Fatalf("cache overwritten with revision %d", rev)
	}
}

func mustRev(t *testing.T, relay testKey, owner string, evt *nostr.Event) int64 {
	v, err := VerifyProjection(evt, relay.pk, owner)
	if err != nil {
		t.Fatal(err)
	}
	return v.Projection.Revision
}

// "A gap greater than one causes a full authorized refetch."
func TestSyncRefetchesOnGap(t *testing.T) {
	relay, owner := newKey(t), newKey(t)
	store := memStore{"k": revisionEvent(t, relay, owner.pk, 4)}
	fake := &relayFake{events: []*nostr.Event{revisionEvent(t, relay, owner.pk, 6)}, then: []*nostr.Event{revisionEvent(t, relay, owner.pk, 7)}}
	res, err := syncWith(t, relay, owner.pk, store, fake)
	if err != nil || res.Decision != DecisionRefetch || !res.Refetched || fake.calls != 2 || res.Verified.Projection.Revision != 7 {
		t.Fatalf("%+v calls %d %v", res, fake.calls, err)
	}
	if mustRev(t, relay, owner.pk, store["k"]) != 7 {
		t.Fatal("refetched projection not persisted")
	}
}

// "Clients persist only verified projections."
func TestSyncNeverPersistsUnverifiedProjection(t *testing.T) {
	relay, forger, owner := newKey(t), newKey(t), newKey(t)
	store := memStore{}
	fake := &relayFake{events: []*nostr.Event{revisionEvent(t, forger, owner.pk, 9)}}
	_, err := syncWith(t, relay, owner.pk, store, fake)
	if !errors.Is(err, ErrNoProjection) || len(store) != 0 {
		t.Fatalf("forged projection: %v, store %v", err, store)
	}
	// Next to a valid one, the forged one is rejected and reported.
	fake.events = append(fake.events, revisionEvent(t, relay, owner.pk, 2))
	res, err := syncWith(t, relay, owner.pk, store, fake)
	if err != nil || res.Verified.Projection.Revision != 2 || len(res.Rejected) != 1 || rule(errors.Unwrap(res.Rejected[0])) != "projection-signer" {
		t.Fatalf("%+v %v", res, err)
	}
}

// "During relay outage, the last verified cache may render but is stale and
// cannot become a replacement write."
func TestSyncOutageShowsStaleCacheAndRefusesWrites(t *testing.T) {
	relay, owner := newKey(t), newKey(t)
	store := memStore{"k": revisionEvent(t, relay, owner.pk, 4)}
	fake := &relayFake{err: errors.New("connection refused")}
	res, err := syncWith(t, relay, owner.pk, store, fake)
	if err != nil || !res.Stale || res.Verified.Projection.Revision != 4 {
		t.Fatalf("%+v %v", res, err)
	}
	if !errors.Is(res.WriteBasis(), ErrStaleBasis) {
		t.Fatal("stale projection accepted as a write basis")
	}
	if _, err := syncWith(t, relay, owner.pk, memStore{}, fake); err == nil {
		t.Fatal("outage with no cache returned a projection")
	}
}

// A cached projection signed by a key that is no longer the relay's self is
// not trusted.
func TestSyncDiscardsCacheSignedByOtherRelayKey(t *testing.T) {
	oldRelay, relay, owner := newKey(t), newKey(t), newKey(t)
	store := memStore{"k": revisionEvent(t, oldRelay, owner.pk, 9)}
	fake := &relayFake{events: []*nostr.Event{revisionEvent(t, relay, owner.pk, 2)}}
	res, err := syncWith(t, relay, owner.pk, store, fake)
	if err != nil || res.Decision != DecisionAccept || res.Verified.Projection.Revision != 2 {
		t.Fatalf("%+v %v", res, err)
	}
}
