package devrelay

import (
	"context"
	"errors"
	"log"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// lockbox is a tiny authority for tests. Kind 9990 ("put", by an
// authenticated owner, naming one reader in `p`) becomes a relay-signed
// kind 30990 box that only the reader sees as is; the owner sees a redacted,
// relay-signed copy; everyone else sees nothing. Kind 9991 ("revoke", naming
// `p`) evicts that reader's live subscriptions.
type lockbox struct{}

func (lockbox) Kinds() []int { return []int{9990, 9991} }

func (lockbox) Ingest(_ context.Context, env Env, authed string, evt *nostr.Event) ([]*nostr.Event, error) {
	if authed == "" {
		return nil, errors.New("auth-required: lockbox needs to know who you are")
	}
	p := evt.Tags.Find("p")
	if p == nil {
		return nil, errors.New("invalid: name a reader in p")
	}
	if evt.Kind == 9991 {
		env.Evict(p[1])
		return nil, nil
	}
	box := &nostr.Event{
		Kind: 30990, CreatedAt: env.Now(), Content: evt.Content,
		Tags: nostr.Tags{{"d", evt.ID}, {"p", p[1]}, {"owner", authed}},
	}
	if err := env.Sign(box); err != nil {
		return nil, err
	}
	return []*nostr.Event{box}, nil
}

func (lockbox) View(env Env, reader string, evt *nostr.Event) *nostr.Event {
	if evt.Kind != 30990 {
		return evt
	}
	switch reader {
	case evt.Tags.Find("p")[1]:
		return evt
	case evt.Tags.Find("owner")[1]:
		redacted := &nostr.Event{Kind: evt.Kind, CreatedAt: evt.CreatedAt, Content: "redacted", Tags: nostr.Tags{{"d", evt.Tags.GetD()}}}
		if env.Sign(redacted) != nil {
			return nil
		}
		return redacted
	}
	return nil
}

func put(t *testing.T, owner, reader, secret string) *nostr.Event {
	return sign(t, owner, 9990, time.Now().Unix(), secret, nostr.Tag{"p", testPub(reader)})
}

// devrelay/authority.go: governed kinds go to Ingest with the connection's
// NIP-42 pubkey; their emitted events are stored, the client event is not.
func TestAuthorityIngestReceivesGovernedKindsWithAuthedPubkey(t *testing.T) {
	r := start(t, Options{Authorities: []Authority{lockbox{}}})
	anon := connect(t, r, "")
	err := anon.Publish(context.Background(), *put(t, "alice", "bob", "s1"))
	if err == nil || !strings.Contains(err.Error(), "auth-required:") {
		t.Fatalf("unauthenticated put: %v", err)
	}
	alice := connect(t, r, "alice")
	cmd := put(t, "alice", "bob", "s1")
	if err := alice.Publish(context.Background(), *cmd); err != nil {
		t.Fatal(err)
	}
	if got := r.Stored(nostr.Filter{Kinds: []int{9990}}); len(got) != 0 {
		t.Fatal("a governed client event reached ordinary storage")
	}
	boxes := r.Stored(nostr.Filter{Kinds: []int{30990}})
	if len(boxes) != 1 || boxes[0].PubKey != r.Self() || boxes[0].Tags.Find("owner")[1] != testPub("alice") {
		t.Fatalf("stored %v, want one relay-signed box owned by alice", boxes)
	}
	if ok, _ := boxes[0].CheckSignature(); !ok {
		t.Fatal("emitted event signature invalid")
	}
}

// authority.go: "View decides what reader receives of evt on every delivery
// surface (REQ results, live fan-out, lookup by id)".
func TestAuthorityViewAppliesPerReaderToREQAndLookupByID(t *testing.T) {
	r := start(t, Options{Authorities: []Authority{lockbox{}}})
	if err := r.PublishAs(testPub("alice"), put(t, "alice", "bob", "s1")); err != nil {
		t.Fatal(err)
	}
	box := r.Stored(nostr.Filter{Kinds: []int{30990}})[0]
	for _, tc := range []struct {
		reader, want string
	}{{"bob", "s1"}, {"alice", "redacted"}, {"carol", ""}, {"", ""}} {
		c := connect(t, r, tc.reader)
		filters := []nostr.Filter{{Kinds: []int{30990}}, {IDs: []string{box.ID}}}
		if tc.want == "redacted" {
			// A synthesized copy has its own id; an ids lookup cannot match it.
			filters = filters[:1]
		}
		for _, f := range filters {
			evs, _ := query(t, c, f)
			switch {
			case tc.want == "" && len(evs) != 0:
				t.Errorf("%q sees %v via %v, want nothing", tc.reader, evs, f)
			case tc.want != "" && (len(evs) != 1 || evs[0].Content != tc.want):
				t.Errorf("%q sees %v via %v, want content %q", tc.reader, evs, f, tc.want)
			}
		}
	}
}

func TestAuthorityViewAppliesPerListenerToLiveEvents(t *testing.T) {
	r := start(t, Options{Authorities: []Authority{lockbox{}}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	subs := map[string]*nostr.Subscription{}
	for _, name := range []string{"bob", "carol"} {
		s, err := connect(t, r, name).Subscribe(ctx, nostr.Filters{{Kinds: []int{30990}}})
		if err != nil {
			t.Fatal(err)
		}
		<-s.EndOfStoredEvents
		subs[name] = s
	}
	_ = r.PublishAs(testPub("alice"), put(t, "alice", "bob", "for bob"))
	_ = r.PublishAs(testPub("alice"), put(t, "alice", "carol", "for carol"))
	// Each connection receives in publication order, so carol's first event
	// being her own box proves bob's box was withheld from her.
	for name, want := range map[string]string{"bob": "for bob", "carol": "for carol"} {
		select {
		case e := <-subs[name].Events:
			if e.Content != want {
				t.Errorf("%s received %q first, want %q", name, e.Content, want)
			}
		case <-ctx.Done():
			t.Fatalf("%s received nothing", name)
		}
	}
}

// Env.Evict "closes every live subscription of pubkey now (revocation)".
func TestEvictClosesOnlyThatPubkeysLiveSubscriptions(t *testing.T) {
	r := start(t, Options{Authorities: []Authority{lockbox{}}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	bob, err := connect(t, r, "bob").Subscribe(ctx, nostr.Filters{{Kinds: []int{30990}}})
	if err != nil {
		t.Fatal(err)
	}
	carol, err := connect(t, r, "carol").Subscribe(ctx, nostr.Filters{{Kinds: []int{30990}}})
	if err != nil {
		t.Fatal(err)
	}
	<-bob.EndOfStoredEvents
	<-carol.EndOfStoredEvents
	if err := r.PublishAs(testPub("alice"), sign(t, "alice", 9991, time.Now().Unix(), "", nostr.Tag{"p", testPub("bob")})); err != nil {
		t.Fatal(err)
	}
	select {
	case reason := <-bob.ClosedReason:
		if !strings.HasPrefix(reason, "restricted:") {
			t.Errorf("CLOSED reason %q", reason)
		}
	case <-ctx.Done():
		t.Fatal("bob's subscription was not closed")
	}
	_ = r.PublishAs(testPub("alice"), put(t, "alice", "carol", "still here"))
	select {
	case e := <-carol.Events:
		if e.Content != "still here" {
			t.Errorf("carol got %q", e.Content)
		}
	case <-ctx.Done():
		t.Fatal("carol's subscription stopped receiving after bob's eviction")
	}
}

// staleAuthority emits versions of one address with decreasing created_at.
type staleAuthority struct{ next nostr.Timestamp }

func (*staleAuthority) Kinds() []int { return []int{9992} }

func (s *staleAuthority) Ingest(_ context.Context, env Env, _ string, _ *nostr.Event) ([]*nostr.Event, error) {
	s.next -= 100
	e := &nostr.Event{Kind: 30991, CreatedAt: s.next, Tags: nostr.Tags{{"d", "x"}}}
	if err := env.Sign(e); err != nil {
		return nil, err
	}
	return []*nostr.Event{e}, nil
}

func (*staleAuthority) View(_ Env, _ string, evt *nostr.Event) *nostr.Event { return evt }

// NIP-PC "MUST NOT report a committed lifecycle event as rolled back merely
// because derived publication failed": when the store refuses an authority's
// emitted event, the command is still acknowledged, the refused event is not
// stored, and the relay logs it (the authority's reconciliation republishes).
func TestCommittedCommandIsNotReportedRolledBackWhenItsEventIsRefused(t *testing.T) {
	var logged strings.Builder
	r := start(t, Options{Authorities: []Authority{&staleAuthority{next: 1000}}, Log: log.New(&logged, "", 0)})
	if err := r.Publish(sign(t, "alice", 9992, 100, "first")); err != nil {
		t.Fatal(err)
	}
	if err := r.Publish(sign(t, "alice", 9992, 101, "second")); err != nil {
		t.Fatalf("a committed command was reported as failed: %v", err)
	}
	stored := r.Stored(nostr.Filter{Kinds: []int{30991}})
	if len(stored) != 1 || stored[0].CreatedAt != 900 {
		t.Fatalf("stored %d events (want the first version only)", len(stored))
	}
	if !strings.Contains(logged.String(), "kind 30991 event was not stored") {
		t.Fatalf("relay log %q does not record the refused event", logged.String())
	}
}
