package gitstate

import (
	"slices"
	"testing"
)

// git config nostr.repo takes the nostr:// URL roster prints for people to
// paste as well as an naddr: both select the same coordinate, relay hints
// included.
func TestNostrRepoConfigAcceptsANostrURL(t *testing.T) {
	r := newTestRepo(t)
	r.commit("one")
	want := coord(alicePK, "cfg")
	r.git("config", "nostr.repo", NostrURL(want, []string{"wss://relay.example.com"}))
	got, err := r.resolve("")
	if err != nil {
		t.Fatal(err)
	}
	if got.Source != SourceGitConfig || got.Coordinate != want || !slices.Equal(got.Relays, []string{"wss://relay.example.com"}) {
		t.Fatalf("got %+v, want %v with its relay hint from git config", got, want)
	}
}

// A malformed nostr:// URL in nostr.repo is an error naming the fix, never
// a silent fall-through to the remotes.
func TestNostrRepoConfigMalformedNostrURLNamesTheFix(t *testing.T) {
	r := newTestRepo(t)
	r.git("config", "nostr.repo", "nostr://not-a-key/x")
	r.git("remote", "add", "origin", nurl(alicePK, "origin"))
	if _, err := r.resolve(""); err == nil {
		t.Fatal("a malformed nostr:// URL in nostr.repo was accepted")
	}
}
