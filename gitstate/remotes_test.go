package gitstate

import (
	"slices"
	"testing"
)

// Remotes reads url and pushurl of every remote separately (go-git's
// RemoteConfig.URLs mixes them).
func TestRemotesListsURLAndPushURLApart(t *testing.T) {
	r := newTestRepo(t)
	r.git("remote", "add", "origin", "https://git.example/repo.git")
	r.git("config", "--add", "remote.origin.pushurl", nurl(alicePK, "repo"))
	r.git("remote", "add", "fork", nurl(bobPK, "repo"))
	got, err := r.open().Remotes()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got["origin"].URLs, []string{"https://git.example/repo.git"}) || !slices.Equal(got["origin"].PushURLs, []string{nurl(alicePK, "repo")}) ||
		!slices.Equal(got["fork"].URLs, []string{nurl(bobPK, "repo")}) || len(got["fork"].PushURLs) != 0 || len(got) != 2 {
		t.Fatalf("%+v", got)
	}
}

// The default clone URLs of an announcement are origin's `url` values that
// are not nostr:// addresses; a pushurl is not a clone URL, and other
// remotes are not origin.
func TestOriginCloneURLsAreOriginsNonNostrFetchURLs(t *testing.T) {
	r := newTestRepo(t)
	if got := r.open().OriginCloneURLs(); got != nil {
		t.Fatalf("no origin: %q", got)
	}
	r.git("remote", "add", "origin", "https://git.example/repo.git")
	r.git("config", "--add", "remote.origin.url", nurl(alicePK, "repo"))
	r.git("config", "--add", "remote.origin.url", "https://mirror.example/repo.git")
	r.git("config", "--add", "remote.origin.pushurl", "git@git.example:repo.git")
	r.git("remote", "add", "fork", "https://fork.example/repo.git")
	got := r.open().OriginCloneURLs()
	if !slices.Equal(got, []string{"https://git.example/repo.git", "https://mirror.example/repo.git"}) {
		t.Fatalf("%q", got)
	}
}

// maintainers.md "Transferring the lead": follow-lead "switches the local
// nostr:// coordinate and nostr.repo". Every url and pushurl naming the old
// coordinate moves to the lead's, keeping relay hints, protocol and query;
// other coordinates, NIP-05 and non-nostr URLs are untouched.
func TestFollowCoordinateMovesNostrRepoAndOnlyTheLeftCoordinate(t *testing.T) {
	r := newTestRepo(t)
	r.git("remote", "add", "origin", "nostr://ssh/"+npub(alicePK)+"/relay.one/repo?ssh_key_file=k")
	r.git("config", "--add", "remote.origin.pushurl", nurl(alicePK, "repo", "relay.two"))
	r.git("remote", "add", "other", nurl(alicePK, "other-repo"))
	r.git("remote", "add", "carol", nurl(carolPK, "repo"))
	r.git("remote", "add", "named", "nostr://alice@example.com/repo")
	r.git("remote", "add", "plain", "https://git.example/repo.git")
	r.git("remote", "add", "naddr", "nostr://"+EncodeNaddr(coord(alicePK, "repo"), []string{"wss://relay.three"}))
	c := r.open()
	names, err := c.FollowCoordinate(coord(alicePK, "repo"), coord(bobPK, "repo"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names, []string{"naddr", "origin"}) {
		t.Fatalf("changed %v", names)
	}
	want := map[string]string{
		"remote.origin.url":     "nostr://ssh/" + npub(bobPK) + "/relay.one/repo?ssh_key_file=k",
		"remote.origin.pushurl": nurl(bobPK, "repo", "relay.two"),
		"remote.other.url":      nurl(alicePK, "other-repo"),
		"remote.carol.url":      nurl(carolPK, "repo"),
		"remote.named.url":      "nostr://alice@example.com/repo",
		"remote.plain.url":      "https://git.example/repo.git",
		"remote.naddr.url":      "nostr://" + EncodeNaddr(coord(bobPK, "repo"), []string{"wss://relay.three"}),
	}
	for key, v := range want {
		if got := r.git("config", "--get", key); got != v {
			t.Errorf("%s = %s, want %s", key, got, v)
		}
	}
	// The fetch refspec survives, and a second run changes nothing.
	if got := r.git("config", "--get", "remote.origin.fetch"); got != "+refs/heads/*:refs/remotes/origin/*" {
		t.Fatalf("fetch refspec %q", got)
	}
	if got := r.git("config", "--get-all", "nostr.repo"); got != EncodeNaddr(coord(bobPK, "repo"), nil) {
		t.Fatalf("nostr.repo = %s", got)
	}
	if got := r.git("config", "--get-all", "remote.origin.url"); got != want["remote.origin.url"] {
		t.Fatalf("the pushurl leaked into url: %s", got)
	}
	if names, err := r.open().FollowCoordinate(coord(alicePK, "repo"), coord(bobPK, "repo"), nil); err != nil || names != nil {
		t.Fatalf("second run: %v %v", names, err)
	}
}

func TestRetargetNostrURLKeepsEverythingButTheMaintainer(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{nurl(alicePK, "repo"), nurl(bobPK, "repo")},
		{"nostr://git@ssh/" + alicePK + "/relay.one/repo", "nostr://git@ssh/" + npub(bobPK) + "/relay.one/repo"},
		{"nostr://" + npub(alicePK) + "/repo?relay=wss%3A%2F%2Fr.example&protocol=https", "nostr://" + npub(bobPK) + "/repo?relay=wss%3A%2F%2Fr.example&protocol=https"},
	} {
		got, err := RetargetNostrURL(c.in, coord(bobPK, "repo"))
		if err != nil || got != c.want {
			t.Errorf("RetargetNostrURL(%s) = %s, %v; want %s", c.in, got, err, c.want)
		}
	}
	if _, err := RetargetNostrURL(nurl(alicePK, "repo"), coord(bobPK, "other")); err == nil {
		t.Fatal("an identifier change must be refused")
	}
}

// follow-lead must leave a checkout that can still find its relays: the new
// nostr.repo carries the relay hints it is given.
func TestFollowCoordinateKeepsRelayHintsInNostrRepo(t *testing.T) {
	r := newTestRepo(t)
	r.commit("one")
	hints := []string{"wss://relay.example"}
	if _, err := r.open().FollowCoordinate(coord(alicePK, "repo"), coord(bobPK, "repo"), hints); err != nil {
		t.Fatal(err)
	}
	got, relays, err := DecodeNaddr(r.git("config", "--get", "nostr.repo"))
	if err != nil || got != coord(bobPK, "repo") || len(relays) != 1 || relays[0] != hints[0] {
		t.Fatalf("nostr.repo decodes to %v %v (%v), want bob's coordinate with %v", got, relays, err, hints)
	}
}
