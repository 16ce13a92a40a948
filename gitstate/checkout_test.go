package gitstate

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// A linked worktree shares the main repository's config (.git/commondir).
func TestOpenLinkedWorktreeReadsSharedConfig(t *testing.T) {
	r := newTestRepo(t)
	r.commit("one")
	r.git("config", "nostr.repo", EncodeNaddr(coord(bobPK, "shared"), nil))
	wt := filepath.Join(t.TempDir(), "wt")
	r.git("worktree", "add", "-q", "-b", "side", wt)
	c, err := Open(wt)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := c.ResolveCoordinate("")
	if err != nil || sel.Source != SourceGitConfig || sel.Coordinate != coord(bobPK, "shared") {
		t.Fatalf("got %+v, %v", sel, err)
	}
}

func TestOpenBareRepositorySkipsMaintainersYAML(t *testing.T) {
	dir := t.TempDir()
	r := &testRepo{t: t, dir: dir}
	r.git("init", "-q", "--bare")
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ResolveCoordinate(""); !errors.Is(err, ErrNoCoordinate) {
		t.Fatalf("bare repo with nothing configured: %v", err)
	}
	r.git("remote", "add", "origin", nurl(alicePK, "bare"))
	if sel, err := c.ResolveCoordinate(""); err != nil || sel.Source != SourceOrigin {
		t.Fatalf("got %+v, %v", sel, err)
	}
}

// Writing nostr.repo must not lose the user's other configuration.
func TestSetNostrRepoPreservesOtherConfig(t *testing.T) {
	r := newTestRepo(t)
	r.commit("one")
	r.git("config", "user.name", "Someone Else")
	r.git("config", "nostr.relay-default-set", "wss://a;wss://b")
	r.git("remote", "add", "upstream", "https://example.com/x.git")
	r.git("config", "branch.main.remote", "upstream")
	r.git("config", "branch.main.merge", "refs/heads/main")
	r.git("config", "custom.section.key", "value with spaces")
	if err := r.open().SetNostrRepo(EncodeNaddr(coord(alicePK, "r"), nil)); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"user.name":               "Someone Else",
		"nostr.relay-default-set": "wss://a;wss://b",
		"remote.upstream.url":     "https://example.com/x.git",
		"branch.main.remote":      "upstream",
		"branch.main.merge":       "refs/heads/main",
		"custom.section.key":      "value with spaces",
	} {
		if got := r.git("config", "--get", key); got != want {
			t.Fatalf("%s = %q after SetNostrRepo, want %q", key, got, want)
		}
	}
	// Replacing keeps exactly one value.
	if err := r.open().SetNostrRepo(EncodeNaddr(coord(bobPK, "r"), nil)); err != nil {
		t.Fatal(err)
	}
	if got := r.git("config", "--get-all", "nostr.repo"); strings.Count(got, "\n") != 0 || got != EncodeNaddr(coord(bobPK, "r"), nil) {
		t.Fatalf("nostr.repo values: %q", got)
	}
}

func TestResolveAmbiguousTrackedRemote(t *testing.T) {
	r := newTestRepo(t)
	r.commit("one")
	r.git("remote", "add", "up", nurl(alicePK, "r"))
	r.git("config", "--add", "remote.up.url", nurl(bobPK, "r"))
	r.git("config", "branch.main.remote", "up")
	_, err := r.resolve("")
	var amb *AmbiguousError
	if !errors.As(err, &amb) || amb.Step != SourceTrackedRemote || len(amb.Candidates) != 2 {
		t.Fatalf("got %v", err)
	}
}

// A detached HEAD tracks nothing, so resolution falls through to origin.
func TestResolveDetachedHeadSkipsTrackedRemoteStep(t *testing.T) {
	r := newTestRepo(t)
	c1 := r.commit("one")
	r.git("remote", "add", "up", nurl(bobPK, "tracked"))
	r.git("remote", "add", "origin", nurl(alicePK, "origin"))
	r.git("config", "branch.main.remote", "up")
	r.git("checkout", "-q", "--detach", c1)
	sel, err := r.resolve("")
	if err != nil || sel.Source != SourceOrigin {
		t.Fatalf("got %+v, %v", sel, err)
	}
}

// git allows branch.<name>.remote to hold a URL instead of a remote name.
func TestResolveTrackedRemoteGivenAsURL(t *testing.T) {
	r := newTestRepo(t)
	r.commit("one")
	r.git("remote", "add", "origin", nurl(alicePK, "origin"))
	r.git("config", "branch.main.remote", nurl(bobPK, "direct"))
	sel, err := r.resolve("")
	if err != nil || sel.Source != SourceTrackedRemote || sel.Coordinate != coord(bobPK, "direct") {
		t.Fatalf("got %+v, %v", sel, err)
	}
}

func TestResolveAmbiguousFlagRemoteAsksForACoordinate(t *testing.T) {
	r := newTestRepo(t)
	r.git("remote", "add", "up", nurl(alicePK, "r"))
	r.git("config", "--add", "remote.up.url", nurl(bobPK, "r"))
	_, err := r.resolve("up")
	var amb *AmbiguousError
	if !errors.As(err, &amb) || amb.Step != SourceFlag || !strings.Contains(err.Error(), "--repo <naddr|nostr-url>") {
		t.Fatalf("got %v", err)
	}
}

// go-git reads url and pushurl together and writes them all back as url; a
// config write by roster must leave a remote's pushurl a pushurl.
func TestConfigWritesKeepPushURLsApart(t *testing.T) {
	r := newTestRepo(t)
	r.commit("one")
	r.git("remote", "add", "upstream", "https://example.com/x.git")
	r.git("config", "remote.upstream.pushurl", "ssh://git@example.com/x.git")
	if err := r.open().SetNostrRepo(EncodeNaddr(coord(alicePK, "r"), nil)); err != nil {
		t.Fatal(err)
	}
	if err := r.open().SetOrigin(nurl(alicePK, "r")); err != nil {
		t.Fatal(err)
	}
	if got := r.git("config", "--get-all", "remote.upstream.url"); got != "https://example.com/x.git" {
		t.Fatalf("remote.upstream.url values after config writes: %q", got)
	}
	if got := r.git("config", "--get-all", "remote.upstream.pushurl"); got != "ssh://git@example.com/x.git" {
		t.Fatalf("remote.upstream.pushurl values after config writes: %q", got)
	}
}
