package gitstate

import "testing"

// "Every write prints, before its preview, target repository: <name>
// <naddr> (from --repo | nostr.repo | remote <name> | ...)": the selection
// returns where it came from.
func TestSelectionSaysWhereItCameFrom(t *testing.T) {
	r := newTestRepo(t)
	r.commit("one")
	r.git("remote", "add", "origin", nurl(alicePK, "origin"))
	r.git("remote", "add", "bob", nurl(bobPK, "from-remote"))
	for _, tt := range []struct {
		flag, config, want string
	}{
		{"", "", "remote origin"},
		{"bob", "", "--repo remote bob"},
		{EncodeNaddr(coord(carolPK, "x"), nil), "", "--repo"},
		{"", EncodeNaddr(coord(carolPK, "cfg"), nil), "nostr.repo"},
	} {
		if tt.config != "" {
			r.git("config", "nostr.repo", tt.config)
		}
		got, err := r.resolve(tt.flag)
		if err != nil {
			t.Fatal(err)
		}
		if got.From() != tt.want {
			t.Fatalf("--repo %q: from %q, want %q", tt.flag, got.From(), tt.want)
		}
	}
}

// "When two sources disagree (the checkout's nostr.repo names another
// coordinate than --repo), the write says so and uses --repo"; the same
// coordinate is no disagreement.
func TestRepoFlagAgainstTheCheckoutsNostrRepo(t *testing.T) {
	r := newTestRepo(t)
	r.git("config", "nostr.repo", EncodeNaddr(coord(alicePK, "cfg"), []string{"wss://relay.example"}))
	same, err := r.resolve(nurl(alicePK, "cfg", "relay.other"))
	if err != nil || same.Disagrees != nil || same.Coordinate != coord(alicePK, "cfg") {
		t.Fatalf("the same coordinate with other hints: %+v %v", same, err)
	}
	other, err := r.resolve(nurl(bobPK, "cfg"))
	if err != nil || other.Coordinate != coord(bobPK, "cfg") || len(other.Disagrees) != 1 || other.Disagrees[0].Coordinate != coord(alicePK, "cfg") {
		t.Fatalf("--repo wins and names the other coordinate: %+v %v", other, err)
	}
}
