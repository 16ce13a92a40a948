package groups_test

import (
	"context"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/testkeys"
)

var (
	gRelaySK = testkeys.Named("groups-test-", "relay")
	gOwnerSK = testkeys.Named("groups-test-", "owner")
	gOtherSK = testkeys.Named("groups-test-", "other")
)

const gID = "44444444-4444-4444-8444-444444444444"

// Rule (NIP-29: group state is what the hosting relay signed): Read builds
// each relay's state from the events that relay's own NIP-11 self signed;
// a state event signed by anyone else is rejected, never used, and a relay
// that does not answer makes the read incomplete.
func TestReadUsesOnlyStateTheRelaySelfSigned(t *testing.T) {
	g := grouprelay.New()
	r := devrelay.StartN(t, 1, devrelay.Options{SecretKey: gRelaySK, Authorities: []devrelay.Authority{g}})[0]
	create := &nostr.Event{Kind: grouprelay.KindCreateGroup, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"h", gID}}}
	testkeys.Sign(t, gOwnerSK, create)
	if err := r.PublishAs(create.PubKey, create); err != nil {
		t.Fatal(err)
	}
	// A relay that does not host the group stores a 39000 anyone signed.
	plain := devrelay.StartN(t, 1, devrelay.Options{})[0]
	forged := &nostr.Event{Kind: 39000, CreatedAt: nostr.Now() + 5, Tags: nostr.Tags{{"d", gID}, {"name", "forged"}}}
	testkeys.Sign(t, gOtherSK, forged)
	if err := plain.Publish(forged); err != nil {
		t.Fatal(err)
	}
	pool := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	t.Cleanup(pool.Close)

	rd := groups.Read(context.Background(), pool, []string{r.URL(), plain.URL()}, gID)
	if !rd.Complete || !rd.Found || len(rd.Relays) != 2 || rd.Relays[1].Found {
		t.Fatalf("read %+v", rd)
	}
	st := rd.Relays[0].Group
	if rd.Relays[0].Self != testkeys.Pub(t, gRelaySK) || len(st.Admins) == 0 || st.Admins[0].Pubkey != testkeys.Pub(t, gOwnerSK) {
		t.Fatalf("state %+v", st)
	}
	other := rd.Relays[1].Group
	if other.Metadata != nil {
		t.Fatal("a state event not signed by the relay's self was used")
	}
	rejected := false
	for _, rj := range other.Rejected {
		rejected = rejected || rj.EventID == forged.ID
	}
	if !rejected {
		t.Fatalf("the forged state event is not listed as rejected: %+v", other.Rejected)
	}

	rd = groups.Read(context.Background(), pool, []string{r.URL(), "ws://127.0.0.1:1"}, gID)
	if rd.Complete || !rd.Found || len(rd.Relays) != 2 || rd.Relays[1].Found {
		t.Fatalf("with a dead relay: %+v", rd)
	}
}
