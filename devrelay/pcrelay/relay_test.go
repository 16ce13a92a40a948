package pcrelay

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/workspace/projects"
)

// startRelay runs the authority inside a real devrelay.
func startRelay(t *testing.T) *devrelay.Relay {
	g := grouprelay.New()
	return devrelay.StartN(t, 1, devrelay.Options{SecretKey: relaySK, Authorities: []devrelay.Authority{New(Options{Groups: g}), g}})[0]
}

func TestRelayStoresTheIdentityTheCommandAndOneCurrentProjection(t *testing.T) {
	r := startRelay(t)
	c := projects.Coordinate{Owner: pub(t, ownerSK), D: "demo"}
	id := sign(t, ownerSK, &nostr.Event{Kind: 30621, CreatedAt: nostr.Now() - 5, Tags: nostr.Tags{{"d", "demo"}}})
	if err := r.Publish(id); err != nil {
		t.Fatal(err)
	}
	p, _ := projects.NewPatch([]string{chanA}, nil)
	cmd, _ := projects.BuildChange(c, 1, p, nostr.Now())
	sign(t, ownerSK, cmd)
	if err := r.PublishAs(cmd.PubKey, cmd); err != nil {
		t.Fatal(err)
	}
	if got := r.Stored(nostr.Filter{Kinds: []int{30621}}); len(got) != 1 || got[0].ID != id.ID {
		t.Fatalf("identity not stored: %v", got)
	}
	if got := r.Stored(nostr.Filter{Kinds: []int{47010}}); len(got) != 1 || got[0].ID != cmd.ID {
		t.Fatalf("command not stored: %v", got)
	}
	st, found, err := projects.FromRelay(r.Stored(nostr.Filter{Kinds: []int{30623}}), c, r.Self())
	if err != nil || !found || st.Revision != 2 {
		t.Fatalf("one current projection expected: %v %v %+v", found, err, st)
	}
}

func TestRelayRejectsClientSubmittedProjectionOverTheWire(t *testing.T) {
	r := startRelay(t)
	c := projects.Coordinate{Owner: pub(t, ownerSK), D: "demo"}
	// Signed with the relay's own key, but arriving through client ingest.
	evt := sign(t, relaySK, &nostr.Event{Kind: 30623, CreatedAt: nostr.Now(), Tags: nostr.Tags{
		{"d", c.Address()}, {"a", c.String()}, {"rev", "1"},
		{"e", strings.Repeat("e", 64), "", "identity"}, {"e", strings.Repeat("c", 64), "", "change"}},
		Content: `{"v":1,"deleted":false,"project_tags":[["d","demo"]]}`})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := nostr.RelayConnect(ctx, r.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	err = conn.Publish(ctx, *evt)
	if err == nil || !strings.Contains(err.Error(), "restricted:") {
		t.Fatalf("client-submitted 30623: %v", err)
	}
	if got := r.Stored(nostr.Filter{Kinds: []int{30623}}); len(got) != 0 {
		t.Fatalf("stored %v", got)
	}
}

func TestRelayDeletionRemovesTheIdentityAndRecreationBringsItBack(t *testing.T) {
	r := startRelay(t)
	c := projects.Coordinate{Owner: pub(t, ownerSK), D: "demo"}
	now := nostr.Now()
	if err := r.Publish(sign(t, ownerSK, &nostr.Event{Kind: 30621, CreatedAt: now - 20, Tags: nostr.Tags{{"d", "demo"}}})); err != nil {
		t.Fatal(err)
	}
	if err := r.Publish(sign(t, ownerSK, &nostr.Event{Kind: 5, CreatedAt: now - 10, Tags: nostr.Tags{{"a", c.String()}}})); err != nil {
		t.Fatal(err)
	}
	if got := r.Stored(nostr.Filter{Kinds: []int{30621}}); len(got) != 0 {
		t.Fatalf("deleted identity still stored: %v", got)
	}
	if got := r.Stored(nostr.Filter{Kinds: []int{5}}); len(got) != 1 {
		t.Fatalf("the deletion request is not stored: %v", got)
	}
	st, _, _ := projects.FromRelay(r.Stored(nostr.Filter{Kinds: []int{30623}}), c, r.Self())
	if !st.Deleted || st.Revision != 2 {
		t.Fatalf("tombstone %+v", st)
	}
	re := sign(t, ownerSK, &nostr.Event{Kind: 30621, CreatedAt: now, Tags: nostr.Tags{{"d", "demo"}}})
	if err := r.Publish(re); err != nil {
		t.Fatal(err)
	}
	if got := r.Stored(nostr.Filter{Kinds: []int{30621}}); len(got) != 1 || got[0].ID != re.ID {
		t.Fatalf("recreated identity not stored: %v", got)
	}
	st, _, _ = projects.FromRelay(r.Stored(nostr.Filter{Kinds: []int{30623}}), c, r.Self())
	if st.Deleted || st.Revision != 3 || st.IdentityEvent != re.ID {
		t.Fatalf("recreated %+v", st)
	}
}

func TestReplayOfASoftDeletedAcceptedCommandIsIdempotent(t *testing.T) {
	r := startRelay(t)
	c := projects.Coordinate{Owner: pub(t, ownerSK), D: "demo"}
	if err := r.Publish(sign(t, ownerSK, &nostr.Event{Kind: 30621, CreatedAt: nostr.Now() - 5, Tags: nostr.Tags{{"d", "demo"}}})); err != nil {
		t.Fatal(err)
	}
	p, _ := projects.NewPatch([]string{chanA}, nil)
	cmd, _ := projects.BuildChange(c, 1, p, nostr.Now())
	sign(t, ownerSK, cmd)
	if err := r.PublishAs(cmd.PubKey, cmd); err != nil {
		t.Fatal(err)
	}
	// The owner deletes the command's event row.
	if err := r.Publish(sign(t, ownerSK, &nostr.Event{Kind: 5, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"e", cmd.ID}}})); err != nil {
		t.Fatal(err)
	}
	if got := r.Stored(nostr.Filter{Kinds: []int{47010}}); len(got) != 0 {
		t.Fatalf("command row not deleted: %v", got)
	}
	if err := r.PublishAs(cmd.PubKey, cmd); err != nil {
		t.Fatalf("replay of an accepted command: %v", err)
	}
	st, _, _ := projects.FromRelay(r.Stored(nostr.Filter{Kinds: []int{30623}}), c, r.Self())
	if st.Revision != 2 {
		t.Fatalf("replay advanced the revision to %d", st.Revision)
	}
}
