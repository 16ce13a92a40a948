package gitstate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// go-git does not follow include.path or includeIf; a config file that has
// them is read through `git config`, so what the included files set counts.
func TestConfigIncludesAreReadThroughGit(t *testing.T) {
	r := newTestRepo(t)
	r.commit("one")
	r.write("nostr.gitconfig", "[nostr]\n\trepo = "+EncodeNaddr(coord(alicePK, "inc"), []string{"wss://relay.inc"})+"\n")
	r.write("remotes.gitconfig", "[remote \"origin\"]\n\turl = https://included.example/repo.git\n")
	r.git("config", "include.path", "../nostr.gitconfig")
	r.git("config", "includeIf.gitdir:"+r.dir+"/.path", "../remotes.gitconfig")
	c := r.open()
	if c.repo == nil {
		t.Fatal("includes alone must not take the repository away from go-git")
	}
	sel, err := c.ResolveCoordinate("")
	if err != nil || sel.Source != SourceGitConfig || sel.Coordinate != coord(alicePK, "inc") || !slices.Equal(sel.Relays, []string{"wss://relay.inc"}) {
		t.Fatalf("ResolveCoordinate = %+v, %v", sel, err)
	}
	if got := c.OriginCloneURLs(); !slices.Equal(got, []string{"https://included.example/repo.git"}) {
		t.Fatalf("OriginCloneURLs = %q", got)
	}
}

// roster writes only .git/config. A key it would change that also has
// values in an included file is refused, naming the file, before anything
// is written: writing .git/config alone would leave two values.
func TestConfigEditRefusesKeysSetInIncludedFiles(t *testing.T) {
	r := newTestRepo(t)
	r.commit("one")
	r.write("nostr.gitconfig", "[nostr]\n\trepo = "+EncodeNaddr(coord(alicePK, "inc"), nil)+"\n")
	r.git("config", "include.path", "../nostr.gitconfig")
	cfgPath := filepath.Join(r.dir, ".git", "config")
	before, _ := os.ReadFile(cfgPath)
	err := r.open().SetNostrRepo(EncodeNaddr(coord(bobPK, "inc"), nil))
	if err == nil || !strings.Contains(err.Error(), "nostr.repo is set in nostr.gitconfig") ||
		!strings.Contains(err.Error(), "git config --file "+filepath.Join(r.dir, "nostr.gitconfig")+" --unset-all nostr.repo") {
		t.Fatalf("got %v", err)
	}
	if after, _ := os.ReadFile(cfgPath); string(after) != string(before) {
		t.Fatalf(".git/config changed:\n%s", after)
	}
	// Keys only .git/config holds are written as usual.
	if err := r.open().SetOrigin(nurl(alicePK, "inc")); err != nil {
		t.Fatal(err)
	}
	if got := r.git("config", "--local", "--get", "remote.origin.url"); got != nurl(alicePK, "inc") {
		t.Fatalf("origin = %q", got)
	}
}

// Writing nostr.repo and remote URLs changes only those keys' lines:
// comments, blank lines, indentation, unrelated sections and keys survive
// byte for byte.
func TestConfigEditsKeepCommentsAndLayout(t *testing.T) {
	r := newTestRepo(t)
	r.commit("one")
	oldNaddr := EncodeNaddr(coord(carolPK, "repo"), nil)
	aliceNaddr := EncodeNaddr(coord(alicePK, "repo"), []string{"wss://relay.one"})
	bobNaddr := EncodeNaddr(coord(bobPK, "repo"), []string{"wss://relay.one"})
	config := func(lines ...string) string { return strings.Join(lines, "\n") + "\n" }
	head := []string{
		"# Top comment, kept.",
		"[core]",
		"\trepositoryformatversion = 0",
		"\tfilemode = true",
		"\tbare = false",
		"\tlogallrefupdates = true",
		"",
		"; a semicolon comment",
		"[user]",
		"    name = Someone   # trailing comment",
		"[remote \"origin\"]",
	}
	tail := []string{
		"[remote \"mirror\"]",
		"\turl = https://mirror.example/repo.git",
		"\turl = " + nurl(alicePK, "repo", "wss://relay.two"),
		"  # after the mirror",
		"[custom \"Sub\"]",
		"\tKey = \"quoted value\" ; comment",
	}
	origin := []string{
		"\turl = https://git.example/repo.git",
		"\t# why this pushurl",
		"\tpushurl = " + nurl(carolPK, "repo"),
		"\tfetch = +refs/heads/*:refs/remotes/origin/*",
	}
	nostr := []string{"[nostr]", "\trepo = " + oldNaddr + "   ; old"}
	write := func(lines ...[]string) string {
		var all []string
		for _, l := range lines {
			all = append(all, l...)
		}
		return config(all...)
	}
	cfgPath := filepath.Join(r.dir, ".git", "config")
	if err := os.WriteFile(cfgPath, []byte(write(head, origin, nostr, tail)), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(step string, want string) {
		t.Helper()
		got, err := os.ReadFile(cfgPath)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Fatalf("after %s:\n%s\nwant:\n%s", step, got, want)
		}
	}

	c := r.open()
	if err := c.SetNostrRepo(aliceNaddr); err != nil {
		t.Fatal(err)
	}
	nostr[1] = "\trepo = " + aliceNaddr
	check("SetNostrRepo", write(head, origin, nostr, tail))

	// The origin url is replaced; the nostr:// pushurl naming another
	// coordinate goes, its comment and the fetch refspec stay.
	if err := c.SetOrigin(nurl(alicePK, "repo", "wss://relay.one")); err != nil {
		t.Fatal(err)
	}
	origin = []string{
		"\turl = " + nurl(alicePK, "repo", "wss://relay.one"),
		"\t# why this pushurl",
		"\tfetch = +refs/heads/*:refs/remotes/origin/*",
	}
	check("SetOrigin", write(head, origin, nostr, tail))

	moved, err := c.FollowCoordinate(coord(alicePK, "repo"), coord(bobPK, "repo"), []string{"wss://relay.one"})
	if err != nil || !slices.Equal(moved, []string{"mirror", "origin"}) {
		t.Fatalf("FollowCoordinate = %v, %v", moved, err)
	}
	origin[0] = "\turl = " + nurl(bobPK, "repo", "wss://relay.one")
	nostr[1] = "\trepo = " + bobNaddr
	tail[2] = "\turl = " + nurl(bobPK, "repo", "wss://relay.two")
	check("FollowCoordinate", write(head, origin, nostr, tail))
}

// A remote whose url values repeat the coordinate being left keeps its
// values in order (git fetches from the first url), even though git config
// cannot replace one of two equal lines in place.
func TestFollowCoordinateKeepsTheOrderOfRepeatedURLs(t *testing.T) {
	r := newTestRepo(t)
	r.git("remote", "add", "origin", nurl(alicePK, "repo"))
	r.git("config", "--add", "remote.origin.url", "https://git.example/repo.git")
	r.git("config", "--add", "remote.origin.url", nurl(alicePK, "repo"))
	if _, err := r.open().FollowCoordinate(coord(alicePK, "repo"), coord(bobPK, "repo"), nil); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{nurl(bobPK, "repo"), "https://git.example/repo.git", nurl(bobPK, "repo")}, "\n")
	if got := r.git("config", "--get-all", "remote.origin.url"); got != want {
		t.Fatalf("origin urls:\n%s\nwant:\n%s", got, want)
	}
	if got := r.git("config", "--get", "remote.origin.fetch"); got != "+refs/heads/*:refs/remotes/origin/*" {
		t.Fatalf("fetch = %q", got)
	}
}
