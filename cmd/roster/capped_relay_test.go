package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
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
// and by one that did, health has complete evidence and a write still goes
// through.
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
	w.ok(alice, alice, 3000, "repo", "health")
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
	m := w.refused(alice, alice, 1000, cmdutil.ExitRefused, "newly-authorized-action", "repo", "edit", "--add-maintainer", bob.npub())
	msg := m["error"].(map[string]any)["message"].(string)
	for _, want := range []string{closed.ID, issue.ID} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %s:\n%s", want, msg)
		}
	}
}

// Round trips (docs/PERFORMANCE.md): a relay that cut its answer to the
// same-identifier filter is asked by author once more for the authors the
// first round reached (Bob, named by Alice), and only that relay; the
// honest relay's answer was whole and costs no more than before
// (discovery and profiles), and a second read, whose cache reaches Bob,
// asks him by author in its first request.
func TestACappedRelayCostsOneMoreRoundPerStepOfReachOnlyThere(t *testing.T) {
	t.Parallel()
	w := &mutWorld{t: t, relays: devrelay.StartN(t, 2, devrelay.Options{}), id: "my-repo", home: testEnv(t), dir: t.TempDir()}
	w.seed(alice.announce(t, w.id, 100, role("M", alice), role("m", bob), maintainersTag(alice, bob)),
		bob.announce(t, w.id, 100, role("M", alice), role("m", bob), maintainersTag(alice, bob)))
	capped, honest := w.relays[0], w.relays[1]
	capped.SetMisbehaviour(strfryLike(900))
	read := w.ok(alice, alice, 1000, "repo")
	if got := members(t, read); got["bob"] != "confirmed" {
		t.Fatalf("members %v", got)
	}
	if c, h := capped.ReqCount(), honest.ReqCount(); c != 3 || h != 2 {
		t.Fatalf("REQs: capped relay %d, honest relay %d; want 3 (discovery, Bob by author, profiles) and 2", c, h)
	}
	last := capped.Requests()[1]
	if len(last) != 2 || !slices.Equal(last[0].Authors, []string{bob.pk}) {
		t.Fatalf("the capped relay's second request %v, want Bob's announcements and deletions by author", last)
	}
	w.ok(alice, alice, 1000, "repo")
	if c := capped.ReqCount(); c != 4 {
		t.Fatalf("a warm read sent %d REQs to the capped relay, want 1", c-3)
	}
}
