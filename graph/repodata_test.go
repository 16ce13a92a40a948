package graph

import (
	"slices"
	"testing"
)

// maintainers.md "Coordinates and repository data": shared metadata (name,
// description, web, hashtags) follows recency, the newest announcement of a
// confirmed maintainer; personal clone servers and relays are each
// author's own, unioned only from the confirmed component: an unconfirmed
// author's newer announcement changes neither.
func TestRepositoryDataFollowsRecencyAndUnionsPersonalInfrastructure(t *testing.T) {
	alice := ann(t, "alice", 300, []string{"name", "Old"}, []string{"description", "old"}, []string{"web", "https://old.example"},
		[]string{"t", "old"}, []string{"clone", "https://a.example/x.git"}, []string{"relays", "wss://a.example"},
		[]string{"r", "1111111111111111111111111111111111111111", "euc"},
		[]string{"M", "<alice>"}, []string{"m", "<bob>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
	bob := ann(t, "bob", 400, []string{"name", "New"}, []string{"description", "new"}, []string{"t", "new"},
		[]string{"clone", "https://b.example/x.git", "https://a.example/x.git"}, []string{"relays", "wss://b.example"},
		[]string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
	mallory := ann(t, "mallory", 900, []string{"name", "Hijacked"}, []string{"clone", "https://evil.example/x.git"})
	d := RepositoryDataOf(resolve(t, "alice", alice, bob, mallory))
	if d.Name != "New" || d.Description != "new" || len(d.Web) != 0 || !slices.Equal(d.Hashtags, []string{"new"}) || d.SharedFrom != pk("bob") {
		t.Fatalf("shared fields %+v", d)
	}
	if !slices.Equal(d.Clone, []string{"https://a.example/x.git", "https://b.example/x.git"}) || !slices.Equal(d.Relays, []string{"wss://a.example", "wss://b.example"}) {
		t.Fatalf("personal fields %+v", d)
	}
	if d.EUC != "1111111111111111111111111111111111111111" {
		t.Fatalf("euc %q", d.EUC)
	}
	// Selected alone (nobody else confirmed): its own fields.
	if d := RepositoryDataOf(resolve(t, "mallory", mallory)); d.Name != "Hijacked" || !slices.Equal(d.Clone, []string{"https://evil.example/x.git"}) {
		t.Fatalf("sole %+v", d)
	}
}
