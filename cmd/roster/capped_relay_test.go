package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
)

// strangersFlood makes a relay add n strangers' events, newer than
// everything seeded (created at up to newest), to every filter naming no
// author: same-identifier announcements for the discovery filter, issues
// for the role-scoped one.
func strangersFlood(n int, newest int64) func(nostr.Filter) devrelay.Strangers {
	return func(f nostr.Filter) devrelay.Strangers {
		switch {
		case slices.Contains(f.Kinds, 30617):
			return devrelay.Strangers{Kind: 30617, Count: n, Newest: newest}
		case slices.Contains(f.Kinds, 1621):
			return devrelay.Strangers{Kind: 1621, Count: n, Newest: newest}
		}
		return devrelay.Strangers{}
	}
}

// strfryLike caps every filter's answer at 500 events, newest first, and
// serves 600 strangers' events dated up to newest for each filter naming
// no author.
func strfryLike(newest int64) devrelay.Misbehaviour {
	return devrelay.Misbehaviour{CapPerFilter: 500, Strangers: strangersFlood(600, newest)}
}

// Rule (a capped relay is incomplete evidence for a filter naming no
// author): behind 600 newer same-identifier announcements from strangers
// on a relay that answers at most 500 events per filter, the repository
// and its second maintainer are still found, by a home that never read it
// and by one that did, and a write still goes through.
func TestStrangersAnnouncementsOnACappedRelayDoNotHideTheRepository(t *testing.T) {
	t.Parallel()
	w := twoMaintainers(t)
	w.relays[0].SetMisbehaviour(strfryLike(2800))
	for _, home := range []string{"fresh", "warm"} {
		r := w
		if home == "fresh" {
			r = &mutWorld{t: t, relays: w.relays, id: w.id, home: testEnv(t), dir: t.TempDir()}
		}
		read := r.ok(alice, alice, 3000, "repo")
		if got := members(t, read); got["alice"] != "confirmed" || got["bob"] != "confirmed" {
			t.Fatalf("%s home: members %v, want Alice and Bob confirmed\n%v", home, got, read)
		}
	}
	w.ok(alice, alice, 3000, "repo", "edit", "--add-maintainer", carol.npub())
	w.wantLatest(alice, role("M", alice), role("m", bob, "2000"), role("m", carol, "3000"), projection(alice, bob, carol))
}

// Rule (a safety check never fails open on a capped relay): 600 newer
// strangers' issues on the coordinates, on a relay that answers at most
// 500 events per filter, do not hide Bob's old status that joining his
// repository would newly authorize: the add is still refused with
// newly-authorized-action and stores nothing.
func TestStrangersIssuesOnACappedRelayDoNotHideANewlyAuthorizedStatus(t *testing.T) {
	t.Parallel()
	w, issue, closed := bobLedHisOwnRepository(t, true)
	w.relays[0].SetMisbehaviour(strfryLike(900))
	m := w.refused(alice, alice, 1000, exitRefused, "newly-authorized-action", "repo", "edit", "--add-maintainer", bob.npub())
	msg := m["error"].(map[string]any)["message"].(string)
	for _, want := range []string{closed.ID, issue.ID} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %s:\n%s", want, msg)
		}
	}
}
