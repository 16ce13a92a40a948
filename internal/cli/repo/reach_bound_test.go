package repo_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (a write's evidence is bounded, and an exceeded bound is a named
// refusal, not a slow write): Alice invited Bob, and Bob's announcement
// names 1,000 keys that each announce the repository naming 9 more, 10,000
// people reachable from a named pubkey. Alice's next change exits 4
// reach-bound within seconds, naming Bob's announcement, the count and the
// bound, and publishes nothing.
func TestAnInviteeNamingThousandsIsABoundedNamedRefusal(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "100"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)))
	bobTags := []nostr.Tag{clitest.Role("M", clitest.Alice, "100"), clitest.Role("m", clitest.Bob, "100")}
	var named []*nostr.Event
	for i := range 1000 {
		sk := nostr.GeneratePrivateKey()
		pk, _ := nostr.GetPublicKey(sk)
		bobTags = append(bobTags, nostr.Tag{"m", pk, "100"})
		e := &nostr.Event{Kind: 30617, CreatedAt: 150, Tags: nostr.Tags{{"d", w.Id}}}
		for j := range 9 {
			e.Tags = append(e.Tags, nostr.Tag{"m", fmt.Sprintf("%060x%04x", i, j), "100"})
		}
		if err := e.Sign(sk); err != nil {
			t.Fatal(err)
		}
		named = append(named, e)
	}
	w.Seed(clitest.Bob.Announce(t, w.Id, 200, bobTags...))
	for _, e := range named {
		w.Relays[0].Inject(e)
	}
	// The 10,000 announcements must all arrive for the count to be 10,000:
	// a --timeout that load can pass would cut the answer short. The
	// refusal takes 6–8 s on a loaded 2-core machine (25 s at load average
	// 25); the search it replaced took 36 s on a quiet one. Wall time
	// measures the machine's load, so the bound is on the requests the
	// refusal costs the relay (about 800), with a wall limit only against
	// a hang.
	start, reqs := time.Now(), w.Relays[0].ReqCount()
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitIncomplete, "reach-bound", "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--timeout", "30s")
	if took := time.Since(start); took > 90*time.Second {
		t.Fatalf("the refusal took %v", took)
	}
	if n := w.Relays[0].ReqCount() - reqs; n > 1200 {
		t.Fatalf("the refusal sent %d requests to the relay, want at most 1,200: the search is not bounded", n)
	} else {
		t.Logf("the refusal sent %d requests in %v", n, time.Since(start))
	}
	e := m["error"].(map[string]any)
	msg := e["message"].(string)
	if !strings.Contains(msg, clitest.Bob.Npub()+"'s announcement alone names 1002") || !strings.Contains(msg, "more than 512 people") {
		t.Fatalf("message does not name Bob and the bound:\n%s", msg)
	}
	if d := e["details"].(map[string]any); d["max_reached"] != float64(512) || d["reached"].(float64) < 10000 {
		t.Fatalf("details %v", d)
	}
}
