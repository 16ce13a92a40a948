package repo_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

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
	w := clitest.TwoMaintainers(t)
	w.Relays[0].SetMisbehaviour(strfryLike(2800))
	for _, home := range []string{"fresh", "warm"} {
		r := w
		if home == "fresh" {
			r = &clitest.MutWorld{T: t, Relays: w.Relays, Id: w.Id, Home: clitest.TestEnv(t), Dir: t.TempDir()}
		}
		read := r.Ok(clitest.Alice, clitest.Alice, 3000, "repo")
		if got := clitest.Members(t, read); got["alice"] != "confirmed" || got["bob"] != "confirmed" {
			t.Fatalf("%s home: members %v, want Alice and Bob confirmed\n%v", home, got, read)
		}
	}
	w.Ok(clitest.Alice, clitest.Alice, 3000, "repo", "health")
	w.Ok(clitest.Alice, clitest.Alice, 3000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "2000"), clitest.Role("m", clitest.Carol, "3000"), clitest.Projection(clitest.Alice, clitest.Bob, clitest.Carol))
}

// Rule (a safety check never fails open on a capped relay): 600 newer
// strangers' issues on the coordinates, on a relay that answers at most
// 500 events per filter, do not hide Bob's old status that joining his
// repository would newly authorize: the add is still refused with
// newly-authorized-action and stores nothing.
func TestStrangersIssuesOnACappedRelayDoNotHideANewlyAuthorizedStatus(t *testing.T) {
	t.Parallel()
	w, issue, closed := bobLedHisOwnRepository(t, true)
	w.Relays[0].SetMisbehaviour(strfryLike(900))
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "newly-authorized-action", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
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
	w := &clitest.MutWorld{T: t, Relays: devrelay.StartN(t, 2, devrelay.Options{}), Id: "my-repo", Home: clitest.TestEnv(t), Dir: t.TempDir()}
	w.Seed(clitest.Alice.Announce(t, w.Id, 100, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Bob.Announce(t, w.Id, 100, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob), clitest.MaintainersTag(clitest.Alice, clitest.Bob)))
	capped, honest := w.Relays[0], w.Relays[1]
	capped.SetMisbehaviour(strfryLike(900))
	read := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo")
	if got := clitest.Members(t, read); got["bob"] != "confirmed" {
		t.Fatalf("members %v", got)
	}
	if c, h := capped.ReqCount(), honest.ReqCount(); c != 3 || h != 2 {
		t.Fatalf("REQs: capped relay %d, honest relay %d; want 3 (discovery, Bob by author, profiles) and 2", c, h)
	}
	last := capped.Requests()[1]
	if len(last) != 2 || !slices.Equal(last[0].Authors, []string{clitest.Bob.Pk}) {
		t.Fatalf("the capped relay's second request %v, want Bob's announcements and deletions by author", last)
	}
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo")
	if c := capped.ReqCount(); c != 4 {
		t.Fatalf("a warm read sent %d REQs to the capped relay, want 1", c-3)
	}
}
