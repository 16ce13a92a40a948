package discovery_test

import (
	"slices"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
)

// Rule: a live subscription following a repository sees every event that
// can change its answer: announcements and states under the identifier
// from anyone, and the deletions and profiles of the selected author, the
// viewer and everyone they reach; a stranger's deletions and profiles are
// not asked for.
func TestLiveFiltersFollowTheIdentifierAndTheReachedPeople(t *testing.T) {
	alice := announce(t, "alice", "repo", 100, nostr.Tag{"maintainers", pub(t, "bob")})
	bob := announce(t, "bob", "repo", 100)
	stranger := announce(t, "stranger", "repo", 100)
	v := &discovery.View{
		Selection: selection(graph.Coordinate{Kind: graph.KindAnnouncement, Pubkey: pub(t, "alice"), Identifier: "repo"}),
		Events:    []*nostr.Event{alice, bob, stranger},
		Viewer:    pub(t, "carol"),
	}
	fs := v.LiveFilters()
	if len(fs) != 2 {
		t.Fatalf("LiveFilters = %v, want the identifier's filter and the people's", fs)
	}
	if !slices.Equal(fs[0].Kinds, []int{graph.KindAnnouncement, graph.KindState}) || !slices.Equal(fs[0].Tags["d"], []string{"repo"}) || len(fs[0].Authors) != 0 {
		t.Fatalf("identifier filter %v", fs[0])
	}
	if !slices.Equal(fs[1].Kinds, []int{0, graph.KindDeletion}) {
		t.Fatalf("people filter kinds %v", fs[1].Kinds)
	}
	for _, who := range []string{"alice", "bob", "carol"} {
		if !slices.Contains(fs[1].Authors, pub(t, who)) {
			t.Errorf("%s's deletions and profile are not followed: %v", who, fs[1].Authors)
		}
	}
	if slices.Contains(fs[1].Authors, pub(t, "stranger")) {
		t.Error("a stranger nobody reaches is followed")
	}
}
