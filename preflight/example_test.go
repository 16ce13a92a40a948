package preflight_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
)

// key is a fixed secret key per name, so the example's output is stable.
func key(name string) (secret, pubkey string) {
	sum := sha256.Sum256([]byte("roster example " + name))
	secret = hex.EncodeToString(sum[:])
	pubkey, _ = nostr.GetPublicKey(secret)
	return secret, pubkey
}

// Alice leads "widgets" alone and adds Bob. Prepare builds her
// replacement announcement (one `m` record added, every other tag kept)
// and says what the change does before anything is signed: Bob becomes
// invited. Adding him a second time is refused with the spec's code and
// the command that works instead. Prepare is pure: events and a time in,
// a plan or a refusal out.
func ExamplePrepare() {
	aliceKey, alice := key("alice")
	_, bob := key("bob")
	names := map[string]string{alice: "alice", bob: "bob"}
	current := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 100,
		Tags: nostr.Tags{{"d", "widgets"}, {"name", "Widgets"}, {"M", alice}, {"maintainers", alice}}}
	if err := current.Sign(aliceKey); err != nil {
		panic(err)
	}
	in := preflight.Input{
		Author:   alice,
		Selected: graph.NewCoordinate(alice, "widgets"),
		Events:   []*nostr.Event{current},
		Now:      1000,
		Intent:   preflight.Intent{Action: preflight.ActAdd, Subject: bob},
	}
	plan, refusal := preflight.Prepare(in)
	if refusal != nil {
		fmt.Println("refused:", refusal.Code)
		return
	}
	for _, p := range plan.Sim.NewlyInvited {
		fmt.Println("newly invited:", names[p])
	}
	for _, t := range plan.Tags {
		if t[0] == "m" {
			fmt.Println("new record:", t[0], names[t[1]], t[2])
		}
	}

	// The same add on the published replacement: Bob is already invited.
	next := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: nostr.Timestamp(1000), Tags: plan.Tags}
	if err := next.Sign(aliceKey); err != nil {
		panic(err)
	}
	in.Events, in.Now = []*nostr.Event{next}, 2000
	if _, refusal := preflight.Prepare(in); refusal != nil {
		fmt.Println("again:", refusal.Code)
	}
	// Output:
	// newly invited: bob
	// new record: m bob 1000
	// again: already-invited
}
