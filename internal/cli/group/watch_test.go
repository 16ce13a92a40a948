package group_test

import (
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (--watch): `group show --watch --json` prints the group again, one
// document per line, when the relay signs a change (a member added), and
// an interrupt ends it with exit 0.
func TestGroupShowWatchPrintsAMemberAdded(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "Home"})
	env := map[string]string{"ROSTER_SECRET_KEY": clitest.PcStrangerSK, "ROSTER_HOME": t.TempDir()}
	run := clitest.StartWatch(t, env, t.TempDir(), "group", "show", clitest.PcHome, "--watch", "--json", "--relay", w.Relay.URL(), "--timeout", "5s")
	first := run.Docs(1, 10*time.Second)[0]
	if first["schema"] != "roster.group/v1" {
		t.Fatalf("first document %v", first)
	}
	run.Settled(1, w.Relay)
	admin := clitest.PubOf(t, clitest.PcAdminSK)
	if groupHasMember(first, admin) {
		t.Fatal("the admin is a member before being added")
	}
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", admin, "admin"})
	// The relay signs the admins (39001) and the members (39002) one after
	// the other: a re-read between them may print the admins first.
	clitest.WaitFor(t, "a document listing the member added", 5*time.Second, func() bool {
		docs := run.Docs(2, 5*time.Second)
		return groupHasMember(docs[len(docs)-1], admin)
	})
	if code := run.Stop(); code != cmdutil.ExitOK {
		t.Fatalf("interrupted watch: exit %d\n%s", code, run.Err.String())
	}
}

func groupHasMember(doc map[string]any, pk string) bool {
	relays, _ := doc["relays"].([]any)
	for _, r := range relays {
		g, _ := r.(map[string]any)["group"].(map[string]any)
		members, _ := g["members"].([]any)
		for _, m := range members {
			if m == pk {
				return true
			}
		}
	}
	return false
}
