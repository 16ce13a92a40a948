// The demo's relay-authoritative state: a NIP-SW workspace, a NIP-PC project
// and a NIP-29 group, so every README tour command works against
// `roster dev relay --seed demo`.

package devrelay

import (
	"context"
	"fmt"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"

	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/sections"
)

// The demo's channels (NIP-29 group ids, as Buzz names channels by UUID).
const (
	// DemoHomeChannel is the demo project's home channel and the demo group.
	DemoHomeChannel = "d3e0c0de-0000-4000-8000-000000000001"
	// DemoRelatedChannel is related to the demo project.
	DemoRelatedChannel = "d3e0c0de-0000-4000-8000-000000000002"
	// DemoReadingChannel is only in the demo workspace.
	DemoReadingChannel = "d3e0c0de-0000-4000-8000-000000000003"
	// DemoProjectD is the demo project's d (its kind 30621 identifier).
	DemoProjectD = DemoIdentifier
)

// The demo workspace's sections.
const (
	demoSectionMaintainers = "d3e0c0de-5ec7-4000-8000-000000000001"
	demoSectionReading     = "d3e0c0de-5ec7-4000-8000-000000000002"
)

// DemoWorkspace is the seeded NIP-SW workspace: alice's, on this relay.
type DemoWorkspace struct {
	Owner     string   `json:"owner"` // npub
	Community string   `json:"community"`
	Sections  []string `json:"sections"`
	Grants    []string `json:"grants"` // "<name>:<role>"
}

// DemoProject is the seeded NIP-PC project: alice's kind 30621.
type DemoProject struct {
	Coordinate  string `json:"coordinate"`
	Naddr       string `json:"naddr"` // kind 30621, with this relay as hint
	HomeChannel string `json:"home_channel"`
}

// DemoGroup is the seeded NIP-29 group, the project's home channel.
type DemoGroup struct {
	ID     string   `json:"id"`
	Admins []string `json:"admins"` // "<name>:<role>"
}

// spaceKinds are the kinds SeedDemo's relay-authoritative state needs an
// authority for: without one the relay would store them as plain events
// and nothing would materialize.
var spaceKinds = []int{sections.KindImport, 30621, 9007}

// seedSpaces publishes, as the demo people, alice's NIP-29 group (bob
// admin, carol and erin members), her project with that group as its home
// channel, and her workspace (imported from a legacy blob, bob granted
// mover). The relay must run the NIP-SW, NIP-PC and NIP-29 authorities.
func seedSpaces(r *Relay, now time.Time, info *DemoInfo, pk map[string]string) error {
	for _, k := range spaceKinds {
		if _, ok := r.authority[k]; !ok {
			return fmt.Errorf("seeding the demo: the relay has no authority for kind %d; run it with the NIP-SW, NIP-PC and NIP-29 authorities", k)
		}
	}
	ctx := context.Background()
	t0 := nostr.Timestamp(now.Unix())
	at := t0 - 3*24*3600
	next := func() nostr.Timestamp { at++; return at }
	publish := func(name string, evt *nostr.Event) error {
		evt.CreatedAt = next()
		if err := evt.Sign(DemoKey(name)); err != nil {
			return err
		}
		if err := r.PublishAs(pk[name], evt); err != nil {
			return fmt.Errorf("seeding the demo (kind %d by %s): %w", evt.Kind, name, err)
		}
		info.Events = append(info.Events, evt)
		return nil
	}
	h := func(tags ...nostr.Tag) nostr.Tags { return append(nostr.Tags{{"h", DemoHomeChannel}}, tags...) }

	// The group: alice creates it (and so owns it), names it, makes bob an
	// admin and adds carol and erin as members.
	for _, e := range []*nostr.Event{
		{Kind: 9007, Tags: h()},
		{Kind: 9002, Tags: h(nostr.Tag{"name", "roster-demo"}, nostr.Tag{"about", "Home channel of the Roster demo project"})},
		{Kind: 9000, Tags: h(nostr.Tag{"p", pk["bob"], "admin"})},
		{Kind: 9000, Tags: h(nostr.Tag{"p", pk["carol"]})},
		{Kind: 9000, Tags: h(nostr.Tag{"p", pk["erin"]})},
	} {
		if err := publish("alice", e); err != nil {
			return err
		}
	}
	info.Group = DemoGroup{ID: DemoHomeChannel, Admins: []string{"alice:owner", "bob:admin"}}
	// The workspace's other channels exist too: the relay's NIP-29 groups
	// are its channel table, and a NIP-SW import may only assign channels
	// that exist there.
	for _, ch := range []struct{ id, name string }{{DemoRelatedChannel, "roster-demo-related"}, {DemoReadingChannel, "roster-demo-reading"}} {
		for _, e := range []*nostr.Event{
			{Kind: 9007, Tags: nostr.Tags{{"h", ch.id}}},
			{Kind: 9002, Tags: nostr.Tags{{"h", ch.id}, {"name", ch.name}}},
		} {
			if err := publish("alice", e); err != nil {
				return err
			}
		}
	}

	// The project: alice's identity, the group as home channel, one related
	// channel and the demo repository as member.
	url := r.URL()
	ident := &nostr.Event{Kind: 30621, Tags: nostr.Tags{
		{"d", DemoProjectD},
		{"name", "Roster demo"},
		{"description", "The demo project served by `roster dev relay`"},
		{"buzz-channel", DemoHomeChannel},
		{"buzz-related-channel", DemoRelatedChannel},
		{"a", "30617:" + pk["alice"] + ":" + DemoIdentifier, url},
	}}
	if err := publish("alice", ident); err != nil {
		return err
	}
	naddr, err := nip19.EncodeEntity(pk["alice"], 30621, DemoProjectD, []string{url})
	if err != nil {
		return err
	}
	info.Project = DemoProject{Coordinate: "30621:" + pk["alice"] + ":" + DemoProjectD, Naddr: naddr, HomeChannel: DemoHomeChannel}

	// The workspace: alice's legacy blob, imported, then bob granted mover.
	community, err := sections.CanonicalCommunity(url)
	if err != nil {
		return err
	}
	alice, err := signer.NewKeySigner(DemoKey("alice"), "demo")
	if err != nil {
		return err
	}
	blob := sections.LegacyBlob{Version: sections.Version,
		Sections: []sections.LegacySection{
			{ID: demoSectionMaintainers, Name: "Maintainers", Order: 0},
			{ID: demoSectionReading, Name: "Reading", Order: 1},
		},
		Assignments: map[string]string{
			DemoHomeChannel:    demoSectionMaintainers,
			DemoRelatedChannel: demoSectionMaintainers,
			DemoReadingChannel: demoSectionReading,
		}}
	src, err := sections.NewLegacySource(ctx, alice, pk["alice"], blob, next())
	if err != nil {
		return err
	}
	if err := r.PublishAs(pk["alice"], src.Event); err != nil {
		return fmt.Errorf("seeding the demo's legacy channel sections: %w", err)
	}
	info.Events = append(info.Events, src.Event)
	imp, key, err := sections.ImportBody(ctx, alice, community, pk["alice"], src)
	if err != nil {
		return err
	}
	env, err := sections.WrapKey(ctx, alice, key, pk["bob"])
	if err != nil {
		return err
	}
	action, err := sections.NewActionID()
	if err != nil {
		return err
	}
	grant := &sections.Grant{Version: sections.Version, ActionID: action, ActorPubkey: pk["bob"],
		Role: sections.RoleMover, KeyEpoch: 1, KeyEnvelope: env}
	for _, body := range []sections.Body{imp, grant} {
		evt, err := sections.CommandEvent(pk["alice"], body, next())
		if err != nil {
			return err
		}
		if err := alice.SignEvent(ctx, evt); err != nil {
			return err
		}
		if err := r.PublishAs(pk["alice"], evt); err != nil {
			return fmt.Errorf("seeding the demo workspace (kind %d): %w", evt.Kind, err)
		}
		info.Events = append(info.Events, evt)
	}
	info.Workspace = DemoWorkspace{Owner: info.People[0].Npub, Community: community,
		Sections: []string{"Maintainers", "Reading"}, Grants: []string{"bob:mover"}}
	return nil
}
