package projects

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// storeRelays is a relay that answers every filter from a fixed set of
// events (matching as NIP-01 does), with relaySK as its NIP-11 self.
type storeRelays struct {
	t      *testing.T
	events []*nostr.Event
	asked  [][]nostr.Filter
}

func (s *storeRelays) RelayInfo(context.Context, string) (*relaypool.RelayInfo, error) {
	return &relaypool.RelayInfo{Self: pub(s.t, relaySK)}, nil
}

func (s *storeRelays) Fetch(_ context.Context, relays []string, filters ...nostr.Filter) *relaypool.FetchResult {
	s.asked = append(s.asked, filters)
	res := &relaypool.FetchResult{Complete: true, Sources: map[string][]string{}}
	for _, u := range relaypool.NormalizeRelays(relays) {
		res.Relays = append(res.Relays, relaypool.RelayReport{URL: u, Status: relaypool.StatusOK})
	}
	for _, e := range s.events {
		for _, f := range filters {
			if f.Matches(e) {
				res.Events = append(res.Events, e)
				for _, r := range res.Relays {
					res.Sources[e.ID] = append(res.Sources[e.ID], r.URL)
				}
				break
			}
		}
	}
	return res
}

// Rule (an edit is built from the owner's latest kind 30621): when the
// relay's Project State still names an older identity and the relay also
// serves a newer one of the owner at the same address, the update edits
// the newer one; both are asked in the one request.
func TestUpdateBuildsOnTheOwnersLatestIdentity(t *testing.T) {
	c := testCoord(t)
	older := sign(t, ownerSK, &nostr.Event{Kind: KindIdentity, CreatedAt: 100, Tags: nostr.Tags{{"d", c.D}, {"name", "Old"}}})
	newer := sign(t, ownerSK, &nostr.Event{Kind: KindIdentity, CreatedAt: 200, Tags: nostr.Tags{{"d", c.D}, {"name", "New"}, {"x", "kept"}}})
	stranger := sign(t, otherSK, &nostr.Event{Kind: KindIdentity, CreatedAt: 300, Tags: nostr.Tags{{"d", c.D}, {"name", "Forged"}}})
	st := stateEvent(t, c, "3", `{"v":1,"deleted":false,"project_tags":[["d","demo"],["name","Old"]]}`, func(tags nostr.Tags) nostr.Tags {
		tags[3] = nostr.Tag{"e", older.ID, "", "identity"}
		return tags
	})
	relays := &storeRelays{t: t, events: []*nostr.Event{st, older, newer, stranger}}
	var published *nostr.Event
	repo := NewMember(pub(t, otherSK), "r", "")
	in := IdentityInput{Relays: relays, Signer: c.Owner, Relay: "ws://relay.example", Coord: c, Now: func() nostr.Timestamp { return 150 },
		Sign: func(_ context.Context, e *nostr.Event) error { return e.Sign(ownerSK) },
		Publish: func(_ context.Context, relay string, e *nostr.Event) relaypool.PublishReport {
			published = e
			return relaypool.PublishReport{URL: relay, OK: true}
		}}
	_, err := Update(context.Background(), in, Fields{Repos: RepositoryEdit{Add: []Member{repo}}})
	// The fake relay makes no new state: the read-back cannot confirm.
	var pe *pipeline.Error
	if !errors.As(err, &pe) || pe.Code != "unverified" || published == nil {
		t.Fatalf("update: %v, published %v", err, published)
	}
	want := nostr.Tags{{"d", c.D}, {"name", "New"}, {"x", "kept"}, {"a", repo.Address}}
	if !reflect.DeepEqual(published.Tags, want) || published.CreatedAt != 201 {
		t.Fatalf("published tags %q at %d, want %q after the newer identity", published.Tags, published.CreatedAt, want)
	}
}
