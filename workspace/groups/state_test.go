package groups

import (
	"errors"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// Keys become public keys and signed events the same way in every NIP-PC
// and NIP-29 test package.
var pub = testkeys.Pub

var (
	relaySK = strings.Repeat("01", 32)
	aliceSK = strings.Repeat("02", 32)
	bobSK   = strings.Repeat("03", 32)
)

const gid = "99999999-9999-4999-8999-999999999999"

func signed(t *testing.T, sk string, kind int, at nostr.Timestamp, tags nostr.Tags) *nostr.Event {
	t.Helper()
	return testkeys.Sign(t, sk, &nostr.Event{Kind: kind, CreatedAt: at, Tags: tags})
}

func TestGroupStateReadsAllFourRelaySignedKinds(t *testing.T) {
	alice, bob := pub(t, aliceSK), pub(t, bobSK)
	st := Build(gid, pub(t, relaySK), []*nostr.Event{
		signed(t, relaySK, 39000, 10, nostr.Tags{{"d", gid}, {"name", "Home"}, {"about", "the home channel"}, {"private"}, {"closed"}}),
		signed(t, relaySK, 39001, 10, nostr.Tags{{"d", gid}, {"p", alice, "owner"}, {"p", bob, "admin", "moderator"}}),
		signed(t, relaySK, 39002, 10, nostr.Tags{{"d", gid}, {"p", alice}, {"p", bob}}),
		signed(t, relaySK, 39003, 10, nostr.Tags{{"d", gid}, {"role", "owner", "everything"}, {"role", "admin"}}),
	})
	if !st.Live() || st.Metadata.Name != "Home" || !st.Metadata.Private || !st.Metadata.Closed || st.Metadata.Hidden {
		t.Fatalf("metadata %+v", st.Metadata)
	}
	if r := st.RolesOf(bob); len(r) != 2 || r[0] != "admin" || r[1] != "moderator" {
		t.Errorf("bob roles %v", r)
	}
	if len(st.Members) != 2 || len(st.Roles) != 2 || st.Roles[0].Description != "everything" || len(st.Sources) != 4 {
		t.Errorf("state %+v", st)
	}
}

func TestNewerGroupStateReplacesAndNeverMerges(t *testing.T) {
	alice, bob := pub(t, aliceSK), pub(t, bobSK)
	old := signed(t, relaySK, 39001, 10, nostr.Tags{{"d", gid}, {"p", alice, "owner"}, {"p", bob, "admin"}})
	removed := signed(t, relaySK, 39001, 11, nostr.Tags{{"d", gid}, {"p", alice, "owner"}})
	// Order of arrival must not matter.
	for _, evs := range [][]*nostr.Event{{old, removed}, {removed, old}} {
		st := Build(gid, pub(t, relaySK), evs)
		if st.RolesOf(bob) != nil {
			t.Fatalf("bob kept roles %v after a newer 39001 dropped him", st.RolesOf(bob))
		}
		if len(st.RolesOf(alice)) != 1 {
			t.Fatalf("alice lost her role")
		}
	}
}

func TestGroupStateSignedByAnyoneButTheRelayIsIgnored(t *testing.T) {
	alice, bob := pub(t, aliceSK), pub(t, bobSK)
	real := signed(t, relaySK, 39001, 10, nostr.Tags{{"d", gid}, {"p", alice, "owner"}})
	forged := signed(t, bobSK, 39001, 20, nostr.Tags{{"d", gid}, {"p", bob, "admin"}})
	st := Build(gid, pub(t, relaySK), []*nostr.Event{real, forged})
	if st.RolesOf(bob) != nil || len(st.Rejected) != 1 || st.Rejected[0].EventID != forged.ID {
		t.Fatalf("forged admin list used: %+v", st)
	}
	if err := Verify(forged, gid, pub(t, relaySK)); !errors.Is(err, ErrEvent) {
		t.Fatalf("Verify: %v", err)
	}
	if err := Verify(real, gid, ""); !errors.Is(err, ErrEvent) {
		t.Fatalf("a relay without self was trusted: %v", err)
	}
	tampered := *real
	tampered.Tags = nostr.Tags{{"d", gid}, {"p", bob, "admin"}}
	if err := Verify(&tampered, gid, pub(t, relaySK)); !errors.Is(err, ErrEvent) {
		t.Fatalf("tampered event verified: %v", err)
	}
}

func TestGroupStateForAnotherGroupIsNotUsed(t *testing.T) {
	bob := pub(t, bobSK)
	other := signed(t, relaySK, 39001, 10, nostr.Tags{{"d", "other"}, {"p", bob, "admin"}})
	twoD := signed(t, relaySK, 39001, 10, nostr.Tags{{"d", "other"}, {"d", gid}, {"p", bob, "admin"}})
	st := Build(gid, pub(t, relaySK), []*nostr.Event{other, twoD})
	if st.RolesOf(bob) != nil {
		t.Fatalf("used another group's admins")
	}
	if err := Verify(twoD, gid, pub(t, relaySK)); !errors.Is(err, ErrEvent) {
		t.Fatalf("two d tags verified")
	}
}

func TestSameSecondTieKeepsTheLowestEventID(t *testing.T) {
	alice, bob := pub(t, aliceSK), pub(t, bobSK)
	a := signed(t, relaySK, 39001, 10, nostr.Tags{{"d", gid}, {"p", alice, "owner"}})
	b := signed(t, relaySK, 39001, 10, nostr.Tags{{"d", gid}, {"p", bob, "owner"}})
	want := a
	if b.ID < a.ID {
		want = b
	}
	for _, evs := range [][]*nostr.Event{{a, b}, {b, a}} {
		st := Build(gid, pub(t, relaySK), evs)
		if st.Sources[0].EventID != want.ID {
			t.Fatalf("tie picked %s, want %s", st.Sources[0].EventID, want.ID)
		}
	}
}

func TestMissingArchivedOrDeletedGroupIsNotLive(t *testing.T) {
	self := pub(t, relaySK)
	if (Build(gid, self, nil)).Live() {
		t.Error("missing group is live")
	}
	for _, tag := range []nostr.Tag{{"archived", "true"}, {"deleted"}} {
		st := Build(gid, self, []*nostr.Event{
			signed(t, relaySK, 39000, 10, nostr.Tags{{"d", gid}, {"name", "x"}}),
			signed(t, relaySK, 39000, 11, nostr.Tags{{"d", gid}, tag}),
		})
		if st.Live() {
			t.Errorf("%v group is live", tag)
		}
	}
}

// A group is archived only when its archived tag's value is "true", as Buzz
// reads it: a bare tag or any other value leaves it live.
func TestArchivedOnlyWhenItsValueIsTrue(t *testing.T) {
	self := pub(t, relaySK)
	for _, tag := range []nostr.Tag{{"archived"}, {"archived", "false"}, {"archived", "TRUE"}, {"archived", ""}} {
		st := Build(gid, self, []*nostr.Event{signed(t, relaySK, 39000, 10, nostr.Tags{{"d", gid}, tag})})
		if !st.Live() || st.Metadata.Archived {
			t.Errorf("%q: archived %v, live %v; want a live group", tag, st.Metadata.Archived, st.Live())
		}
	}
}
