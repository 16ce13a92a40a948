package membership_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/membership"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
)

// exampleKey is a fixed secret key per name, so the example's output is stable.
func exampleKey(name string) (secret, pubkey string) {
	sum := sha256.Sum256([]byte("roster example " + name))
	secret = hex.EncodeToString(sum[:])
	pubkey, _ = nostr.GetPublicKey(secret)
	return secret, pubkey
}

// Alice leads "widgets" alone, on one relay, and adds Bob. The pipeline is
// given its world as values: a discovery of the relay with complete
// evidence, the same relay asked again for the recheck and the re-reads, a
// signer, a clock and a delivery. Run previews the change with preflight,
// rechecks what the preview used, signs, publishes, reads the event back
// and re-resolves it: Bob is invited, exactly as previewed, and the relay
// keeps the replacement as the latest announcement.
func ExamplePipeline_Run() {
	aliceKey, alice := exampleKey("alice")
	_, bob := exampleKey("bob")
	names := map[string]string{alice: "alice", bob: "bob"}

	relay, err := devrelay.New(devrelay.Options{})
	if err != nil {
		panic(err)
	}
	if err := relay.Start(); err != nil {
		panic(err)
	}
	defer relay.Close()
	current := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 100,
		Tags: nostr.Tags{{"d", "widgets"}, {"name", "Widgets"}, {"M", alice}, {"maintainers", alice}}}
	if err := current.Sign(aliceKey); err != nil {
		panic(err)
	}
	if err := relay.Publish(current); err != nil {
		panic(err)
	}

	now := func() time.Time { return time.Now() }
	src := discovery.Source{
		Relays: []string{relay.URL()},
		Pinned: true,
		Pool:   func() *relaypool.Pool { return relaypool.New(relaypool.Options{Timeout: 5 * time.Second}) },
	}
	sel := gitstate.Selection{Coordinate: graph.NewCoordinate(alice, "widgets")}
	key, err := signer.NewKeySigner(aliceKey, "example")
	if err != nil {
		panic(err)
	}
	p := membership.Pipeline{
		// The read is a value: the pipeline discovers, rechecks and
		// re-reads with it itself.
		Read:   discovery.Query{Source: src, Selection: sel, Viewer: alice}.Write(bob),
		Relays: relaypool.Fresh(src.Pool),
		Now:    now,
		Signer: key,
	}

	out, err := p.Run(context.Background(), preflight.Intent{Action: preflight.ActAdd, Subject: bob}, false)
	if err != nil {
		fmt.Println("stopped:", err)
		return
	}
	for _, who := range out.Plan.Sim.NewlyInvited {
		fmt.Println("newly invited:", names[who])
	}
	fmt.Println("published:", len(out.Published), "verified:", out.Verified)
	latest := relay.Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{alice}, Limit: 1})
	fmt.Println("the relay's latest names bob:", latest[0].ID == out.Published[0] && latest[0].Tags.ContainsAny("m", []string{bob}))
	// Output:
	// newly invited: bob
	// published: 1 verified: true
	// the relay's latest names bob: true
}
