package preflight

import (
	"testing"
)

// maintainers.md "Coordinates and repository data": "Personal clone servers,
// relays, Blossom servers, and grasp preferences remain authored
// independently and are unioned only from the confirmed component", while
// shared metadata follows the repository's recency rules. A first-time
// accepter's announcement copies the inviting announcement's shared fields
// (and its identity: r euc, u) but never signs the inviter's infrastructure.
func TestFirstAcceptanceCopiesSharedMetadataNotPersonalInfrastructure(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100,
		[]string{"r", "1111111111111111111111111111111111111111", "euc"},
		[]string{"name", "My Project"},
		[]string{"description", "What it does"},
		[]string{"clone", "https://alice.example/my-repo.git"},
		[]string{"web", "https://alice.example/my-repo"},
		[]string{"relays", "wss://alice.relay"},
		[]string{"alt", "git repository: My Project"},
		[]string{"t", "nostr"},
		[]string{"u", "nostr://npub1upstream/other"},
		[]string{"blossoms", "https://blossom.alice.example"},
		[]string{"x-alice-private", "hers"},
	)
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	p := w.run("bob", "alice", 2000, Intent{Action: ActAccept})
	wantTags(t, p,
		[]string{"r", "1111111111111111111111111111111111111111", "euc"},
		[]string{"name", "My Project"},
		[]string{"description", "What it does"},
		[]string{"web", "https://alice.example/my-repo"},
		[]string{"alt", "git repository: My Project"},
		[]string{"t", "nostr"},
		[]string{"u", "nostr://npub1upstream/other"},
		[]string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "2000"}, mt("alice", "bob"))
	if len(p.Sim.Identity) != 0 {
		t.Fatalf("a copied identity must not change it: %+v", p.Sim.Identity)
	}
}
