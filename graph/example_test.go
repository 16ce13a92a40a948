package graph_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/graph"
)

// key is a fixed secret key per name, so the example's output is stable.
func key(name string) (secret, pubkey string) {
	sum := sha256.Sum256([]byte("roster example " + name))
	secret = hex.EncodeToString(sum[:])
	pubkey, _ = nostr.GetPublicKey(secret)
	return secret, pubkey
}

// announce signs a kind 30617 announcement of "widgets" by name.
func announce(name string, createdAt int64, tags ...nostr.Tag) *nostr.Event {
	secret, _ := key(name)
	e := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: nostr.Timestamp(createdAt),
		Tags: append(nostr.Tags{{"d", "widgets"}}, tags...)}
	if err := e.Sign(secret); err != nil {
		panic(err)
	}
	return e
}

// Alice leads and invites Bob (her `m` record); Bob's own announcement
// names Alice as lead and lists himself, which confirms him. Carol is
// invited by Alice but has published nothing, so she stays invited.
// Resolve is pure: the events and the time in, the answer out.
func ExampleResolve() {
	_, alice := key("alice")
	_, bob := key("bob")
	_, carol := key("carol")
	names := map[string]string{alice: "alice", bob: "bob", carol: "carol"}

	events := []*nostr.Event{
		announce("alice", 300,
			nostr.Tag{"M", alice},
			nostr.Tag{"m", bob, "200"},
			nostr.Tag{"m", carol, "250"},
			nostr.Tag{"maintainers", alice, bob, carol}),
		announce("bob", 200,
			nostr.Tag{"M", alice, "200"},
			nostr.Tag{"m", bob, "200"},
			nostr.Tag{"maintainers", alice, bob}),
	}
	r := graph.Resolve(events, graph.NewCoordinate(alice, "widgets"), 1000, graph.Options{})

	fmt.Println("lead:", names[r.Lead], "("+string(r.LeadSource)+")")
	// Maintainers come in a stable order (by pubkey), not by role.
	for _, m := range r.Maintainers {
		fmt.Println(names[m.Pubkey], m.Status)
	}
	// Output:
	// lead: alice (explicit)
	// bob confirmed
	// carol invited
	// alice confirmed
}
