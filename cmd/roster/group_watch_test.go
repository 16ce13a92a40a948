package main

import (
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (--watch): `group show --watch --json` prints the group again, one
// document per line, when the relay signs a change (a member added), and
// an interrupt ends it with exit 0.
func TestGroupShowWatchPrintsAMemberAdded(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	w.group(pcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "Home"})
	env := map[string]string{"ROSTER_SECRET_KEY": pcStrangerSK, "ROSTER_HOME": t.TempDir()}
	run := startWatch(t, env, t.TempDir(), "group", "show", pcHome, "--watch", "--json", "--relay", w.relay.URL(), "--timeout", "5s")
	first := run.docs(1, 10*time.Second)[0]
	if first["schema"] != "roster.group/v1" {
		t.Fatalf("first document %v", first)
	}
	run.settled(1, w.relay)
	admin := pubOf(t, pcAdminSK)
	if groupHasMember(first, admin) {
		t.Fatal("the admin is a member before being added")
	}
	w.group(pcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", admin, "admin"})
	// The relay signs the admins (39001) and the members (39002) one after
	// the other: a re-read between them may print the admins first.
	waitFor(t, "a document listing the member added", 5*time.Second, func() bool {
		docs := run.docs(2, 5*time.Second)
		return groupHasMember(docs[len(docs)-1], admin)
	})
	if code := run.stop(); code != cmdutil.ExitOK {
		t.Fatalf("interrupted watch: exit %d\n%s", code, run.err.String())
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
