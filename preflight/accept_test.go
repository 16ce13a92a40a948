package preflight

import (
	"encoding/json"
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
		[]string{"clone"},
		[]string{"web", "https://alice.example/my-repo"},
		[]string{"relays"},
		mt("alice", "bob"),
		[]string{"alt", "git repository: My Project"},
		[]string{"t", "nostr"},
		[]string{"u", "nostr://npub1upstream/other"},
		[]string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "2000"})
	if len(p.Sim.Identity) != 0 {
		t.Fatalf("a copied identity must not change it: %+v", p.Sim.Identity)
	}
}

// ngit writes every announcement with its tags in one order (d, r euc, name,
// description, clone, web, relays, maintainers, alt, t, u, blossoms, then
// tags it does not know, roles among them) and always with `clone`, `web`
// and `relays`, empty when it has none. A first acceptance is a new
// announcement: it is written that way whatever order the inviter used, and
// the accepter's own clone servers and relays, unknown here, are empty.
func TestFirstAcceptanceIsWrittenInNgitTagOrderWithEmptyCloneAndRelays(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100,
		[]string{"t", "nostr"},
		[]string{"alt", "git repository: My Project"},
		[]string{"name", "My Project"},
		[]string{"relays", "wss://alice.relay"},
		[]string{"r", "1111111111111111111111111111111111111111", "euc"},
	)
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	p := w.run("bob", "alice", 2000, Intent{Action: ActAccept})
	got, _ := json.Marshal(p.Event().Tags)
	want := `[["d","` + repoID + `"],["r","1111111111111111111111111111111111111111","euc"],["name","My Project"],` +
		`["clone"],["web"],["relays"],["maintainers","` + pk("bob") + `","` + pk("alice") + `"],` +
		`["alt","git repository: My Project"],["t","nostr"],["M","` + pk("alice") + `","2000"],["m","` + pk("bob") + `","2000"]]`
	if string(got) != want {
		t.Fatalf("tags\n got: %s\nwant: %s", got, want)
	}
}
