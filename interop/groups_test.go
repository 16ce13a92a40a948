package interop

import (
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
)

// NIP-29 and NIP-51: a group nostr-tools created (its 9007) is joined and
// left by roster; nostr-tools verifies the 9021 and 9022 roster signed, the
// relay's 9000 and 9001, and the kind 10009 groups lists --save published,
// with their tag grammar.
func TestGroupJoinLeaveAndGroupsListInteroperate(t *testing.T) {
	t.Parallel()
	relay := devrelay.StartN(t, 1, devrelay.Options{SecretKey: strings.Repeat("24", 32), Authorities: []devrelay.Authority{grouprelay.New()}})[0]
	urls := []string{relay.URL()}
	const id = "interop-group"
	node(t, "publish", map[string]any{"relays": urls, "events": []map[string]any{{
		"sk": alice.sk, "kind": grouprelay.KindCreateGroup, "created_at": time.Now().Unix() - 10, "tags": [][]string{{"h", id}},
	}}}, nil)
	ref := relay.URL() + "'" + id
	_, j := run{Home: t.TempDir(), Key: bob.sk}.ok(t, "group", "join", ref, "--save", "--timeout", "10s", "--json")
	_, l := run{Home: t.TempDir(), Key: bob.sk}.ok(t, "group", "leave", ref, "--save", "--timeout", "10s", "--json")
	if j["outcome"] != "joined" || l["outcome"] != "left" {
		t.Fatalf("join %v, leave %v", j["outcome"], l["outcome"])
	}
	f := fetchChecked(t, urls, "", nostr.Filter{Kinds: []int{9000, 9001, 9021, 9022, 10009}})
	kinds := map[int]int{}
	for _, e := range f.Events {
		kinds[e.Kind]++
	}
	// The 10009 is replaceable: the leave's version replaced the join's.
	if kinds[9021] != 1 || kinds[9022] != 1 || kinds[9000] != 1 || kinds[9001] != 1 || kinds[10009] != 1 {
		t.Fatalf("nostr-tools fetched %v", kinds)
	}
}
