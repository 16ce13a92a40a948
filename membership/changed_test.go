package membership

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
)

// Rule (a recheck's changed list covers only reachable authors): the
// selected author's replaced announcement is a change; a stranger's
// same-identifier announcement and a stranger's deletion are not.
func TestRecheckChangesCountOnlyReachableAuthors(t *testing.T) {
	base := announcement(t, 100)
	out := previewed(base)
	out.Before.Events = []*nostr.Event{base}
	newer := announcement(t, 200)
	stranger := nostr.GeneratePrivateKey()
	theirs := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 150, Tags: nostr.Tags{{"d", "repo"}}}
	del := &nostr.Event{Kind: nostr.KindDeletion, CreatedAt: 150, Tags: nostr.Tags{{"e", base.ID}}}
	for _, e := range []*nostr.Event{theirs, del} {
		if err := e.Sign(stranger); err != nil {
			t.Fatal(err)
		}
	}
	fresh := []*nostr.Event{newer, theirs, del}
	keys := preflight.FingerprintChanges(out.Plan.Fingerprint, preflight.Fingerprint(fresh))
	if len(keys) != 3 {
		t.Fatalf("fingerprint changes %v", keys)
	}
	got := reachableChanges(out, fresh, keys)
	if len(got) != 1 || got[0] != "30617:"+base.PubKey {
		t.Fatalf("reachable changes %v, want only the selected author's announcement", got)
	}
}

func TestChangedSummaryIsBounded(t *testing.T) {
	var many []string
	for i := range 10_000 {
		many = append(many, fmt.Sprintf("announcement of stranger %d", i))
	}
	s := changedSummary(many)
	if !strings.HasPrefix(s, "10000 events changed: announcement of stranger 0, ") || !strings.HasSuffix(s, "and 9995 more") || len(s) > 300 {
		t.Fatalf("%d bytes: %.300s", len(s), s)
	}
	if s := changedSummary(many[:2]); s != "announcement of stranger 0, announcement of stranger 1" {
		t.Fatal(s)
	}
}
