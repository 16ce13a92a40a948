package discovery_test

import (
	"context"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// Rule (an announcement republished without its role records is
// reported, by every read that judges health): LoadMany, which `project
// health` reads its member repositories with, finds the last complete
// version of a damaged member's announcement as Load does, so its view
// carries the role loss; an undamaged member carries none.
func TestLoadManyReportsAMemberRepublishedWithoutItsRoleRecords(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	publishTeam(t, relays, "alpha")
	publishTeam(t, relays, "beta")
	ctx := context.Background()
	src := cachedSource(t, t.TempDir(), devrelay.URLs(relays)...)
	src.Pinned = true
	sels := manySelections(t, "alpha", "beta")
	first, err := discovery.LoadMany(ctx, src, sels, discovery.Complete, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range first {
		if m.Err != nil || len(m.View.RoleLosses) != 0 {
			t.Fatalf("before the damage, repository %d: %v, %d role losses", i, m.Err, len(m.View.RoleLosses))
		}
	}
	lead, co := testkeys.Pub(t, manyLeadSK), testkeys.Pub(t, manyCoSK)
	damaged := testkeys.Sign(t, manyLeadSK, &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 400, Tags: nostr.Tags{
		{"d", "alpha"}, {"maintainers", lead, co}, {"web", "https://example.invalid/alpha"}}})
	if err := relays[0].Publish(damaged); err != nil {
		t.Fatal(err)
	}
	got, err := discovery.LoadMany(ctx, src, sels, discovery.Complete, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Err != nil {
		t.Fatal(got[0].Err)
	}
	losses := got[0].View.RoleLosses
	if len(losses) != 1 || losses[0].Author != lead || losses[0].Current.ID != damaged.ID || len(losses[0].Lost) == 0 {
		t.Fatalf("damaged member: role losses %+v", losses)
	}
	if got[1].Err != nil || len(got[1].View.RoleLosses) != 0 {
		t.Fatalf("undamaged member: %v, %d role losses", got[1].Err, len(got[1].View.RoleLosses))
	}
}
