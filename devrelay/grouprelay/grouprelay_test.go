package grouprelay

import (
	"context"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// Keys become public keys and signed events the same way in every NIP-PC
// and NIP-29 test package.
var pub = testkeys.Pub

var (
	relaySK = strings.Repeat("01", 32)
	ownerSK = strings.Repeat("02", 32)
	adminSK = strings.Repeat("03", 32)
	userSK  = strings.Repeat("04", 32)
)

const gid = "99999999-9999-4999-8999-999999999999"

type fixture struct {
	t     *testing.T
	a     *Authority
	env   devrelay.Env
	now   nostr.Timestamp
	state []*nostr.Event // every state event emitted so far
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, a: New(), now: 1000}
	f.env = devrelay.Env{Self: pub(t, relaySK), Sign: func(e *nostr.Event) error { return e.Sign(relaySK) },
		Now: func() nostr.Timestamp { return f.now }}
	return f
}

func (f *fixture) send(sk string, kind int, tags ...nostr.Tag) error {
	e := &nostr.Event{Kind: kind, CreatedAt: f.now, Tags: append(nostr.Tags{{"h", gid}}, tags...)}
	if err := e.Sign(sk); err != nil {
		f.t.Fatal(err)
	}
	out, err := f.a.Ingest(context.Background(), f.env, e.PubKey, e)
	if err == nil {
		if len(out) != 5 || out[0] != e {
			f.t.Fatalf("emitted %v", out)
		}
		f.state = append(f.state, out[1:]...)
	}
	return err
}

// read is what a client would see: only relay-signed state, newest wins.
func (f *fixture) read() groups.State { return groups.Build(gid, pub(f.t, relaySK), f.state) }

func ok(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func refused(t *testing.T, err error, prefix string) {
	t.Helper()
	if err == nil || !strings.HasPrefix(err.Error(), prefix) {
		t.Fatalf("got %v, want %q", err, prefix)
	}
}

func TestCreateGroupMakesTheCreatorItsOwner(t *testing.T) {
	f := newFixture(t)
	ok(t, f.send(ownerSK, KindCreateGroup))
	st := f.read()
	if !st.Live() || len(st.RolesOf(pub(t, ownerSK))) != 1 || st.RolesOf(pub(t, ownerSK))[0] != "owner" ||
		len(st.Members) != 1 || len(st.Roles) != 3 || len(st.Sources) != 4 || len(st.Rejected) != 0 {
		t.Fatalf("state %+v", st)
	}
	refused(t, f.send(adminSK, KindCreateGroup), "duplicate:")
}

func TestPutUserSetsRolesAndRemoveUserDropsThemFromTheNextState(t *testing.T) {
	f := newFixture(t)
	ok(t, f.send(ownerSK, KindCreateGroup))
	ok(t, f.send(ownerSK, KindPutUser, nostr.Tag{"p", pub(t, adminSK), "admin"}))
	ok(t, f.send(adminSK, KindPutUser, nostr.Tag{"p", pub(t, userSK)}))
	st := f.read()
	if r := st.RolesOf(pub(t, adminSK)); len(r) != 1 || r[0] != "admin" {
		t.Fatalf("admin roles %v", r)
	}
	if st.RolesOf(pub(t, userSK)) != nil || len(st.Members) != 3 {
		t.Fatalf("state %+v", st)
	}
	// put-user on an existing member replaces its roles.
	ok(t, f.send(ownerSK, KindPutUser, nostr.Tag{"p", pub(t, adminSK), "moderator"}))
	if r := f.read().RolesOf(pub(t, adminSK)); len(r) != 1 || r[0] != "moderator" {
		t.Fatalf("roles not replaced: %v", r)
	}
	ok(t, f.send(ownerSK, KindRemoveUser, nostr.Tag{"p", pub(t, adminSK)}))
	st = f.read()
	if st.RolesOf(pub(t, adminSK)) != nil || len(st.Members) != 2 {
		t.Fatalf("removed member remains: %+v", st)
	}
}

func TestOnlyOwnersAndAdminsModerate(t *testing.T) {
	f := newFixture(t)
	ok(t, f.send(ownerSK, KindCreateGroup))
	ok(t, f.send(ownerSK, KindPutUser, nostr.Tag{"p", pub(t, userSK), "moderator"}))
	refused(t, f.send(userSK, KindPutUser, nostr.Tag{"p", pub(t, adminSK), "admin"}), "restricted:")
	ok(t, f.send(ownerSK, KindPutUser, nostr.Tag{"p", pub(t, adminSK), "admin"}))
	refused(t, f.send(adminSK, KindPutUser, nostr.Tag{"p", pub(t, userSK), "owner"}), "restricted:")
	refused(t, f.send(adminSK, KindRemoveUser, nostr.Tag{"p", pub(t, ownerSK)}), "restricted:")
	refused(t, f.send(adminSK, KindDeleteGroup), "restricted:")
	// The relay key may do anything.
	ok(t, f.send(relaySK, KindPutUser, nostr.Tag{"p", pub(t, userSK), "owner"}))
}

func TestEditMetadataReplacesTheMetadata(t *testing.T) {
	f := newFixture(t)
	ok(t, f.send(ownerSK, KindCreateGroup))
	ok(t, f.send(ownerSK, KindEditMetadata, nostr.Tag{"name", "Home"}, nostr.Tag{"private"}))
	ok(t, f.send(ownerSK, KindEditMetadata, nostr.Tag{"name", "Renamed"}))
	st := f.read()
	if st.Metadata.Name != "Renamed" || st.Metadata.Private {
		t.Fatalf("metadata %+v", st.Metadata)
	}
	refused(t, f.send(ownerSK, KindEditMetadata, nostr.Tag{"parent", "x"}), "invalid:")
}

func TestDeleteGroupLeavesATombstoneThatCannotBeRecreated(t *testing.T) {
	f := newFixture(t)
	ok(t, f.send(ownerSK, KindCreateGroup))
	ok(t, f.send(ownerSK, KindPutUser, nostr.Tag{"p", pub(t, adminSK), "admin"}))
	ok(t, f.send(ownerSK, KindDeleteGroup))
	st := f.read()
	if st.Live() || !st.Metadata.Deleted || len(st.Admins) != 0 || len(st.Members) != 0 {
		t.Fatalf("state %+v", st)
	}
	if s := f.a.Standing(f.env.Community, gid, pub(t, ownerSK)); s.Live {
		t.Fatal("deleted group is live")
	}
	refused(t, f.send(ownerSK, KindCreateGroup), "blocked:")
	refused(t, f.send(ownerSK, KindPutUser, nostr.Tag{"p", pub(t, adminSK), "admin"}), "invalid:")
}

func TestStateEventsReplaceEvenWithinOneSecond(t *testing.T) {
	f := newFixture(t)
	ok(t, f.send(ownerSK, KindCreateGroup))
	ok(t, f.send(ownerSK, KindPutUser, nostr.Tag{"p", pub(t, adminSK), "admin"}))
	ok(t, f.send(ownerSK, KindRemoveUser, nostr.Tag{"p", pub(t, adminSK)}))
	last := map[int]nostr.Timestamp{}
	for _, e := range f.state {
		if e.CreatedAt <= last[e.Kind] {
			t.Fatalf("kind %d created_at %d not after %d", e.Kind, e.CreatedAt, last[e.Kind])
		}
		last[e.Kind] = e.CreatedAt
	}
}

func TestClientsCannotSubmitGroupState(t *testing.T) {
	f := newFixture(t)
	for _, k := range groups.StateKinds {
		e := &nostr.Event{Kind: k, CreatedAt: 1, Tags: nostr.Tags{{"d", gid}}}
		_ = e.Sign(relaySK) // even with the relay's own key
		_, err := f.a.Ingest(context.Background(), f.env, "", e)
		refused(t, err, "restricted:")
	}
}

func TestModerationNeedsAGroupID(t *testing.T) {
	f := newFixture(t)
	e := &nostr.Event{Kind: KindCreateGroup, CreatedAt: 1}
	_ = e.Sign(ownerSK)
	_, err := f.a.Ingest(context.Background(), f.env, "", e)
	refused(t, err, "invalid:")
}

// nip-29.md: a group belongs to the relay that enforces it, and a fork "keeps
// the same id but enforces a different set of moderation policies and a
// different admin roster". The same id in another community is another
// group: creating it is no duplicate, and its roles do not leak across.
func TestSameGroupIDInAnotherCommunityIsAnotherGroup(t *testing.T) {
	f := newFixture(t)
	f.env.Community = "a.test"
	ok(t, f.send(ownerSK, KindCreateGroup))
	f.env.Community = "b.test"
	ok(t, f.send(userSK, KindCreateGroup))
	if s := f.a.Standing("b.test", gid, pub(t, ownerSK)); !s.Live || len(s.Roles) != 0 {
		t.Fatalf("the owner in a.test has standing %+v in b.test", s)
	}
	if s := f.a.Standing("a.test", gid, pub(t, ownerSK)); !s.Live || len(s.Roles) != 1 || s.Roles[0] != "owner" {
		t.Fatalf("owner's standing in a.test: %+v", s)
	}
}
