package groups_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/testkeys"
)

type modWorld struct {
	t     *testing.T
	relay *devrelay.Relay
	pool  *relaypool.Pool
}

func newModWorld(t *testing.T) *modWorld {
	r := devrelay.StartN(t, 1, devrelay.Options{SecretKey: gRelaySK, Authorities: []devrelay.Authority{grouprelay.New()}})[0]
	pool := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	t.Cleanup(pool.Close)
	return &modWorld{t: t, relay: r, pool: pool}
}

// run is one Moderate as sk on the world's relay.
func (w *modWorld) run(sk string, in groups.ModerationInput) (groups.ModerationResult, error) {
	in.Relays, in.Publish, in.Me = w.pool, pipeline.PoolPublish(w.pool), testkeys.Pub(w.t, sk)
	in.Sign = func(_ context.Context, e *nostr.Event) error { return e.Sign(sk) }
	in.Ask, in.Now = []string{w.relay.URL()}, nostr.Now
	if in.ID == "" {
		in.ID = gID
	}
	return groups.Moderate(context.Background(), in)
}

func (w *modWorld) must(sk string, in groups.ModerationInput) groups.ModerationResult {
	w.t.Helper()
	res, err := w.run(sk, in)
	if err != nil {
		w.t.Fatalf("%s: %v", in.Action, err)
	}
	return res
}

func str(s string) *string { return &s }
func yes() *bool           { b := true; return &b }

func code(err error) string {
	var pe *pipeline.Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// Rule (nip-29.md 9007 then 9002): create is a create-group followed by an
// edit-metadata carrying the fields given, both previewed; the relay-signed
// 39000 verifies it; a second create of the id is refused before signing.
func TestCreateSendsCreateGroupThenEditMetadataAndVerifiesThe39000(t *testing.T) {
	w := newModWorld(t)
	dry := w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate, DryRun: true, Edit: groups.MetadataEdit{Name: str("Home"), Closed: yes()}})
	if len(dry.Steps) != 2 || dry.Steps[0].Kind != 9007 || dry.Steps[1].Kind != 9002 || dry.Steps[0].Sent || len(dry.Preview) != 2 {
		t.Fatalf("dry run %+v", dry)
	}
	if got := w.relay.Stored(nostr.Filter{Kinds: []int{39000}}); len(got) != 0 {
		t.Fatal("a dry run created the group")
	}
	res := w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate, Edit: groups.MetadataEdit{Name: str("Home"), Closed: yes()}})
	if !res.Steps[1].Accepted || res.After == nil || res.After.Metadata.Name != "Home" || !res.After.Metadata.Closed || !strings.Contains(res.Verified, "you are owner") {
		t.Fatalf("create %+v", res)
	}
	for _, s := range res.Steps {
		if s.Event.Tags.GetFirst([]string{"h", gID}) == nil {
			t.Fatalf("kind %d has no h tag", s.Kind)
		}
	}
	_, err := w.run(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate})
	if code(err) != groups.CodeGroupExists {
		t.Fatalf("second create: %v", err)
	}
}

// Rule (nip-29.md "Subgroups": a 9002 that does not carry all the children
// "MUST be rejected"): edit starts from the relay-signed 39000 and keeps
// every field, the parent and the child tags, changing only what was asked.
func TestEditKeepsEveryOtherFieldTheParentAndTheChildren(t *testing.T) {
	w := newModWorld(t)
	w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate, ID: "root", Edit: groups.MetadataEdit{Name: str("Root")}})
	w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate, Edit: groups.MetadataEdit{Name: str("Mid"), About: str("middle"), Parent: str("root")}})
	w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate, ID: "leaf", Edit: groups.MetadataEdit{Parent: str(gID)}})
	res := w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActEdit, Edit: groups.MetadataEdit{Name: str("Middle")}})
	m := res.After.Metadata
	if m.Name != "Middle" || m.About != "middle" || m.Parent != "root" || !slices.Equal(m.Children, []string{"leaf"}) {
		t.Fatalf("after edit %+v", m)
	}
	sent := res.Steps[0].Event
	if sent.Tags.GetFirst([]string{"child", "leaf"}) == nil || sent.Tags.GetFirst([]string{"parent", "root"}) == nil {
		t.Fatalf("the 9002 %v drops the parent or a child", sent.Tags)
	}
	again := w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActEdit, Edit: groups.MetadataEdit{Name: str("Middle")}})
	if !again.NothingToChange || len(again.Steps) != 0 {
		t.Fatalf("an edit to the current value %+v", again)
	}
}

// Rule (nip-29.md "Relays MUST reject any kind:9002 carrying ["parent",
// "X"] unless the event author is also an admin of X"): create --parent
// is refused before anything is signed when the signer does not administer
// the parent.
func TestCreateUnderAParentTheSignerDoesNotAdministerIsRefusedBeforeSigning(t *testing.T) {
	w := newModWorld(t)
	w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate, ID: "root"})
	_, err := w.run(gOtherSK, groups.ModerationInput{Action: groups.ActCreate, Edit: groups.MetadataEdit{Parent: str("root")}})
	if code(err) != groups.CodeParentNotAdmin {
		t.Fatalf("got %v", err)
	}
	_, err = w.run(gOtherSK, groups.ModerationInput{Action: groups.ActCreate, Edit: groups.MetadataEdit{Parent: str("nowhere")}})
	if code(err) != groups.CodeParentNotAdmin {
		t.Fatalf("missing parent: %v", err)
	}
	if got := w.relay.Stored(nostr.Filter{Kinds: []int{9007}, Authors: []string{testkeys.Pub(t, gOtherSK)}}); len(got) != 0 {
		t.Fatal("a refused create sent a 9007")
	}
}

// Rule (nip-29.md 9000/9001 and "Checking your own membership"): add and
// remove are verified by the latest 9000/9001 naming the person; a role
// change is a 9000 too; the signer's roles and the relay's advertised roles
// are shown; a refusal by role carries the relay's reason and changes
// nothing.
func TestAddChangeRolesAndRemoveAreVerifiedByTheRelaysRecord(t *testing.T) {
	w := newModWorld(t)
	w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate})
	other := testkeys.Pub(t, gOtherSK)
	add := w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActPutUser, Target: other, Roles: []string{"moderator"}})
	if !add.TargetAfter.Member || !slices.Equal(add.TargetAfter.Roles, []string{"moderator"}) || !slices.Equal(add.SignerRoles, []string{"owner"}) || len(add.RelayRoles) != 3 {
		t.Fatalf("add %+v", add)
	}
	if !strings.HasPrefix(add.Preview[0], "adds npub1") {
		t.Fatalf("preview %v", add.Preview)
	}
	// The moderator may not add anyone: the relay says why.
	third := testkeys.Pub(t, testkeys.Named("groups-test-", "third"))
	_, err := w.run(gOtherSK, groups.ModerationInput{Action: groups.ActPutUser, Target: third})
	var pe *pipeline.Error
	if !errors.As(err, &pe) || pe.Class != pipeline.Refused || !strings.Contains(pe.Msg, "needs the role owner or admin") {
		t.Fatalf("moderator's add: %v", err)
	}
	change := w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActPutUser, Target: other, Roles: []string{"admin"}})
	if !strings.HasPrefix(change.Preview[0], "changes npub1") || !slices.Equal(change.TargetAfter.Roles, []string{"admin"}) {
		t.Fatalf("role change %+v", change)
	}
	rm := w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActRemoveUser, Target: other})
	if rm.TargetAfter.Member || rm.TargetAfter.Basis != "remove-user" {
		t.Fatalf("remove %+v", rm)
	}
	again := w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActRemoveUser, Target: other})
	if !again.NothingToChange {
		t.Fatalf("removing a non-member %+v", again)
	}
}

// Rule (nip-29.md 9005 and "Timeline references"): delete-event previews
// the event, sends previous references the relay checks, and verifies by
// the event's absence; an event of another group is refused before signing.
func TestDeleteEventIsVerifiedByTheEventsAbsence(t *testing.T) {
	w := newModWorld(t)
	w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate})
	msg := testkeys.Sign(t, gOtherSK, &nostr.Event{Kind: 9, CreatedAt: nostr.Now(), Content: "buy now", Tags: nostr.Tags{{"h", gID}}})
	elsewhere := testkeys.Sign(t, gOtherSK, &nostr.Event{Kind: 9, CreatedAt: nostr.Now(), Content: "x", Tags: nostr.Tags{{"h", "other"}}})
	for _, e := range []*nostr.Event{msg, elsewhere} {
		if err := w.relay.Publish(e); err != nil {
			t.Fatal(err)
		}
	}
	res := w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActDeleteEvent, EventID: msg.ID})
	if !strings.Contains(res.Preview[0], `"buy now"`) || !strings.Contains(res.Verified, "no longer serves") {
		t.Fatalf("delete-event %+v", res)
	}
	if p := res.Steps[0].Event.Tags.GetFirst([]string{"previous"}); p == nil || !slices.Contains((*p)[1:], msg.ID[:8]) {
		t.Fatalf("no previous reference to the group's latest event: %v", res.Steps[0].Event.Tags)
	}
	_, err := w.run(gOwnerSK, groups.ModerationInput{Action: groups.ActDeleteEvent, EventID: elsewhere.ID})
	if code(err) != groups.CodeEventNotInGroup {
		t.Fatalf("another group's event: %v", err)
	}
}

// Rule (nip-29.md 9009, 9021 with code, 9008): an invite code lets another
// person into a closed group once; delete verifies by the tombstone.
func TestInviteThenJoinOnceThenDeleteTheGroup(t *testing.T) {
	w := newModWorld(t)
	w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate, Edit: groups.MetadataEdit{Closed: yes()}})
	inv := w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActInvite, Code: "c0de"})
	ref, err := groups.ParseRef(inv.Naddr)
	if err != nil || ref.Invite != "c0de" || ref.ID != gID || ref.Relay != w.relay.URL() {
		t.Fatalf("naddr %s: %+v %v", inv.Naddr, ref, err)
	}
	join := func(sk string) (groups.RequestResult, error) {
		return groups.Join(context.Background(), groups.RequestInput{Relays: w.pool, Publish: pipeline.PoolPublish(w.pool),
			Sign: func(_ context.Context, e *nostr.Event) error { return e.Sign(sk) }, Me: testkeys.Pub(t, sk),
			Host: ref.Relay, ID: ref.ID, Code: ref.Invite, Now: nostr.Now})
	}
	if res, err := join(gOtherSK); err != nil || res.Outcome != groups.OutcomeJoined {
		t.Fatalf("join with the code: %+v %v", res, err)
	}
	if _, err := join(testkeys.Named("groups-test-", "third")); err == nil || !strings.Contains(err.Error(), "already used") {
		t.Fatalf("the code used twice: %v", err)
	}
	del := w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActDeleteGroup})
	if del.After.Live() || !del.After.Metadata.Deleted {
		t.Fatalf("delete %+v", del)
	}
}

// Rule (nip-29.md 9002 "all the fields of group-metadata"): edit carries
// every tag of the current 39000, those roster has no flag for included
// (supported_kinds, livekit, banner), so only what was asked changes.
func TestEditKeepsMetadataTagsRosterHasNoFlagFor(t *testing.T) {
	w := newModWorld(t)
	w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate})
	extra := testkeys.Sign(t, gOwnerSK, &nostr.Event{Kind: groups.KindEditMetadata, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"h", gID},
		{"name", "Old"}, {"supported_kinds", "9", "11"}, {"livekit"}, {"banner", "https://b.example/x.png"}}})
	if err := w.relay.PublishAs(extra.PubKey, extra); err != nil {
		t.Fatal(err)
	}
	res := w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActEdit, Edit: groups.MetadataEdit{Name: str("New"), Private: yes()}})
	sent := res.Steps[0].Event.Tags
	for _, want := range [][]string{{"supported_kinds", "9", "11"}, {"livekit"}, {"banner", "https://b.example/x.png"}, {"name", "New"}, {"private"}} {
		if sent.GetFirst(want) == nil || len(*sent.GetFirst(want)) != len(want) {
			t.Errorf("the 9002 lacks %v: %v", want, sent)
		}
	}
	if m := res.After.Metadata; m.Name != "New" || !m.Private || m.Banner != "https://b.example/x.png" {
		t.Fatalf("after %+v", m)
	}
}
