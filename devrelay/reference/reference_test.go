package reference

import (
	"context"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/testkeys"
)

const (
	live    = "c0ffee00-0000-4000-8000-000000000001"
	deleted = "c0ffee00-0000-4000-8000-000000000002"
	missing = "c0ffee00-0000-4000-8000-000000000003"
	section = "c0ffee00-5ec7-4000-8000-000000000001"
)

// world is a relay running Authorities(), on which the owner created group
// live and created then deleted group deleted.
func world(t *testing.T) (*devrelay.Relay, testkeys.Key, string) {
	r := devrelay.StartN(t, 1, devrelay.Options{Authorities: Authorities()})[0]
	owner := testkeys.New(t)
	now := nostr.Now()
	for _, e := range []*nostr.Event{
		{Kind: grouprelay.KindCreateGroup, Tags: nostr.Tags{{"h", live}}},
		{Kind: grouprelay.KindCreateGroup, Tags: nostr.Tags{{"h", deleted}}},
		{Kind: grouprelay.KindDeleteGroup, Tags: nostr.Tags{{"h", deleted}}},
	} {
		e.CreatedAt = now
		if err := r.PublishAs(owner.PK, testkeys.Sign(t, owner.SK, e)); err != nil {
			t.Fatal(err)
		}
	}
	community, err := sections.CanonicalCommunity(r.URL())
	if err != nil {
		t.Fatal(err)
	}
	return r, owner, community
}

// importing is owner's signed import assigning channels to one section.
func importing(t *testing.T, owner testkeys.Key, community string, channels ...string) *nostr.Event {
	ctx := context.Background()
	blob := sections.LegacyBlob{Version: sections.Version, Sections: []sections.LegacySection{{ID: section, Name: "S", Order: 0}},
		Assignments: map[string]string{}}
	for _, c := range channels {
		blob.Assignments[c] = section
	}
	src, err := sections.NewLegacySource(ctx, owner.Signer, owner.PK, blob, nostr.Now())
	if err != nil {
		t.Fatal(err)
	}
	body, _, err := sections.ImportBody(ctx, owner.Signer, community, owner.PK, src)
	if err != nil {
		t.Fatal(err)
	}
	return command(t, owner, body)
}

func command(t *testing.T, owner testkeys.Key, body sections.Body) *nostr.Event {
	evt, err := sections.CommandEvent(owner.PK, body, nostr.Now())
	if err != nil {
		t.Fatal(err)
	}
	return testkeys.Sign(t, owner.SK, evt)
}

// Rule (nip-sw.md "Import requirements"): "channels are unique, exist in the
// same community, and are not deleted". The reference relay's channels are
// its NIP-29 groups: an import naming a group that never existed, or one
// that was deleted, is refused and changes nothing; one naming a live group
// is accepted.
func TestImportedChannelsMustExistAsUndeletedGroupsOfTheRelay(t *testing.T) {
	r, owner, community := world(t)
	for _, ch := range []string{missing, deleted} {
		err := r.PublishAs(owner.PK, importing(t, owner, community, live, ch))
		if err == nil || !strings.Contains(err.Error(), ch) {
			t.Fatalf("an import assigning %s was not refused naming it: %v", ch, err)
		}
	}
	if got := r.Stored(nostr.Filter{Kinds: []int{sections.KindProjection}}); len(got) != 0 {
		t.Fatalf("a refused import stored %d projections", len(got))
	}
	if err := r.PublishAs(owner.PK, importing(t, owner, community, live)); err != nil {
		t.Fatalf("an import of a live group's channel: %v", err)
	}
}

// Rule (nip-sw.md, moves 9053 assign through the same lookup): a move into a
// section of a channel the relay has no live group for is refused; of a
// live group's channel it is accepted.
func TestMovedChannelsMustExistAsUndeletedGroupsOfTheRelay(t *testing.T) {
	r, owner, community := world(t)
	if err := r.PublishAs(owner.PK, importing(t, owner, community)); err != nil {
		t.Fatal(err)
	}
	move := func(ch string) error {
		id, err := sections.NewActionID()
		if err != nil {
			t.Fatal(err)
		}
		s := section
		return r.PublishAs(owner.PK, command(t, owner, &sections.Move{Version: sections.Version, ActionID: id, ChannelID: ch, SectionID: &s}))
	}
	for _, ch := range []string{missing, deleted} {
		if err := move(ch); err == nil || !strings.Contains(err.Error(), ch) {
			t.Fatalf("a move of %s was not refused naming it: %v", ch, err)
		}
	}
	if err := move(live); err != nil {
		t.Fatalf("a move of a live group's channel: %v", err)
	}
}

// Rule (nip-29.md 9005 delete-event): on the running relay the deleted
// event is gone from REQs and its author cannot publish it again.
func TestDeleteEventRemovesTheEventFromTheRelay(t *testing.T) {
	r, owner, _ := world(t)
	member := testkeys.New(t)
	msg := testkeys.Sign(t, member.SK, &nostr.Event{Kind: 9, CreatedAt: nostr.Now(), Content: "spam", Tags: nostr.Tags{{"h", live}}})
	if err := r.PublishAs(member.PK, msg); err != nil {
		t.Fatal(err)
	}
	del := testkeys.Sign(t, owner.SK, &nostr.Event{Kind: grouprelay.KindDeleteEvent, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"h", live}, {"e", msg.ID}}})
	if err := r.PublishAs(owner.PK, del); err != nil {
		t.Fatal(err)
	}
	if got := r.Stored(nostr.Filter{IDs: []string{msg.ID}}); len(got) != 0 {
		t.Fatal("the deleted event is still stored")
	}
	if got := r.Stored(nostr.Filter{IDs: []string{del.ID}}); len(got) != 1 {
		t.Fatal("the 9005 itself is not stored")
	}
	if err := r.PublishAs(member.PK, msg); err == nil || !strings.HasPrefix(err.Error(), "blocked:") {
		t.Fatalf("re-publishing the deleted event: %v", err)
	}
}
