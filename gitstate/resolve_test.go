package gitstate

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestOpenOutsideACheckoutIsErrNotARepository(t *testing.T) {
	_, err := Open(t.TempDir())
	if !errors.Is(err, ErrNotARepository) {
		t.Fatalf("Open(empty dir) = %v, want ErrNotARepository", err)
	}
}

func TestOpenFromSubdirectoryFindsTheWorkTreeRoot(t *testing.T) {
	r := newTestRepo(t)
	sub := filepath.Join(r.dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := Open(sub)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(r.dir)
	got, _ := filepath.EvalSymlinks(c.Dir())
	if got != want {
		t.Fatalf("Dir() = %s, want %s", got, want)
	}
}

// Spec order step 0: explicit --repo <REMOTE|NADDR|NOSTR-URL> beats everything.
func TestResolveOrderFlagBeatsEveryConfiguredCoordinate(t *testing.T) {
	r := newTestRepo(t)
	r.git("config", "nostr.repo", EncodeNaddr(coord(alicePK, "cfg"), nil))
	r.git("remote", "add", "origin", nurl(alicePK, "origin"))
	r.git("remote", "add", "bob", nurl(bobPK, "from-remote", "relay.bob"))
	tests := []struct {
		flag       string
		want       Selection
		wantDetail string
	}{
		{EncodeNaddr(coord(carolPK, "by-naddr"), nil), Selection{Coordinate: coord(carolPK, "by-naddr"), Source: SourceFlag}, ""},
		{nurl(carolPK, "by-url", "relay.carol"), Selection{Coordinate: coord(carolPK, "by-url"), Relays: []string{"wss://relay.carol"}, Source: SourceFlag}, ""},
		{"bob", Selection{Coordinate: coord(bobPK, "from-remote"), Relays: []string{"wss://relay.bob"}, Source: SourceFlag, Detail: "remote bob"}, "remote bob"},
	}
	for _, tt := range tests {
		got, err := r.resolve(tt.flag)
		if err != nil {
			t.Fatalf("--repo %s: %v", tt.flag, err)
		}
		if tt.wantDetail == "" {
			tt.want.Detail = tt.flag
		}
		// nostr.repo names another coordinate: --repo wins, and the
		// selection says which coordinate it overrode.
		tt.want.Disagrees = []Candidate{{Coordinate: coord(alicePK, "cfg"), From: "git config nostr.repo"}}
		if !reflect.DeepEqual(got, tt.want) {
			t.Fatalf("--repo %s:\n got %+v\nwant %+v", tt.flag, got, tt.want)
		}
	}
}

func TestResolveFlagRemoteMustExistAndBeNostr(t *testing.T) {
	r := newTestRepo(t)
	r.git("remote", "add", "github", "https://github.com/a/b.git")
	if _, err := r.resolve("nope"); err == nil || !strings.Contains(err.Error(), "no such remote") || !strings.Contains(err.Error(), "github") {
		t.Fatalf("unknown remote: %v", err)
	}
	if _, err := r.resolve("github"); err == nil || !strings.Contains(err.Error(), "no nostr:// URL") {
		t.Fatalf("non-nostr remote: %v", err)
	}
}

// Spec order step 1: nostr.repo beats the tracked remote, origin and others.
func TestResolveOrderGitConfigNostrRepoBeatsRemotes(t *testing.T) {
	r := newTestRepo(t)
	r.commit("one")
	r.git("config", "nostr.repo", EncodeNaddr(coord(carolPK, "cfg"), nil))
	r.git("remote", "add", "origin", nurl(alicePK, "origin"))
	r.git("config", "branch.main.remote", "origin")
	got, err := r.resolve("")
	if err != nil {
		t.Fatal(err)
	}
	if got.Source != SourceGitConfig || got.Coordinate != coord(carolPK, "cfg") {
		t.Fatalf("got %+v", got)
	}
}

// Spec order step 2: the current branch's tracked nostr:// remote beats origin.
func TestResolveOrderTrackedRemoteBeatsOrigin(t *testing.T) {
	r := newTestRepo(t)
	r.commit("one")
	r.git("remote", "add", "origin", nurl(alicePK, "origin"))
	r.git("remote", "add", "upstream", nurl(bobPK, "tracked"))
	r.git("config", "branch.main.remote", "upstream")
	r.git("config", "branch.main.merge", "refs/heads/main")
	got, err := r.resolve("")
	if err != nil {
		t.Fatal(err)
	}
	if got.Source != SourceTrackedRemote || got.Coordinate != coord(bobPK, "tracked") || got.Detail != "remote upstream" {
		t.Fatalf("got %+v", got)
	}
	// A tracked remote that is not nostr:// is skipped, falling to origin.
	r.git("remote", "set-url", "upstream", "https://example.com/x.git")
	got, err = r.resolve("")
	if err != nil || got.Source != SourceOrigin || got.Coordinate != coord(alicePK, "origin") {
		t.Fatalf("non-nostr tracked remote: got %+v, %v", got, err)
	}
}

// Spec order step 3: origin when it is nostr:// beats other nostr remotes.
func TestResolveOrderOriginBeatsOtherNostrRemotes(t *testing.T) {
	r := newTestRepo(t)
	r.git("remote", "add", "origin", nurl(alicePK, "origin"))
	r.git("remote", "add", "bob", nurl(bobPK, "other"))
	r.git("remote", "add", "carol", nurl(carolPK, "other"))
	got, err := r.resolve("")
	if err != nil || got.Source != SourceOrigin || got.Coordinate != coord(alicePK, "origin") {
		t.Fatalf("got %+v, %v", got, err)
	}
}

// Spec order step 4: the sole remaining distinct nostr:// coordinate; the
// same coordinate on two remotes is one candidate, relay hints merged.
func TestResolveOrderSoleRemainingNostrCoordinate(t *testing.T) {
	r := newTestRepo(t)
	r.git("remote", "add", "origin", "https://github.com/a/b.git")
	r.git("remote", "add", "a", nurl(bobPK, "repo", "relay.one"))
	r.git("remote", "add", "b", "nostr://ssh/"+npub(bobPK)+"/relay.two/repo")
	got, err := r.resolve("")
	if err != nil {
		t.Fatal(err)
	}
	want := Selection{Coordinate: coord(bobPK, "repo"), Relays: []string{"wss://relay.one", "wss://relay.two"}, Source: SourceSoleRemote, Detail: "remote a, remote b"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("\n got %+v\nwant %+v", got, want)
	}
}

// "Several candidates at one step is an error naming them, never a random pick."
func TestResolveAmbiguousSoleRemoteStepNamesEveryCandidate(t *testing.T) {
	r := newTestRepo(t)
	r.git("remote", "add", "alice", nurl(alicePK, "repo"))
	r.git("remote", "add", "bob", nurl(bobPK, "repo"))
	r.git("remote", "add", "bob2", nurl(bobPK, "repo", "relay.x"))
	_, err := r.resolve("")
	var amb *AmbiguousError
	if !errors.As(err, &amb) {
		t.Fatalf("got %v, want *AmbiguousError", err)
	}
	if amb.Step != SourceSoleRemote || len(amb.Candidates) != 3 {
		t.Fatalf("step %s candidates %+v", amb.Step, amb.Candidates)
	}
	msg := err.Error()
	for _, want := range []string{"2 different repository coordinates among its nostr:// remotes", npub(alicePK) + "/repo (from remote alice)", npub(bobPK) + "/repo (from remote bob)", "remote bob2", "--repo <remote>", "git config nostr.repo <naddr>"} {
		if !strings.Contains(msg, want) {
			t.Fatalf("error %q does not mention %q", msg, want)
		}
	}
}

func TestResolveAmbiguousNostrRepoValues(t *testing.T) {
	r := newTestRepo(t)
	r.git("config", "--add", "nostr.repo", EncodeNaddr(coord(alicePK, "repo"), nil))
	r.git("config", "--add", "nostr.repo", EncodeNaddr(coord(bobPK, "repo"), nil))
	_, err := r.resolve("")
	var amb *AmbiguousError
	if !errors.As(err, &amb) || amb.Step != SourceGitConfig || len(amb.Candidates) != 2 {
		t.Fatalf("got %v", err)
	}
}

func TestResolveAmbiguousOriginURLs(t *testing.T) {
	r := newTestRepo(t)
	r.git("remote", "add", "origin", nurl(alicePK, "repo"))
	r.git("config", "--add", "remote.origin.url", nurl(bobPK, "repo"))
	r.git("remote", "add", "other", nurl(carolPK, "repo"))
	_, err := r.resolve("")
	var amb *AmbiguousError
	if !errors.As(err, &amb) || amb.Step != SourceOrigin || len(amb.Candidates) != 2 {
		t.Fatalf("got %v", err)
	}
}

func TestResolveMalformedNostrRemoteIsAnErrorNotASkip(t *testing.T) {
	r := newTestRepo(t)
	r.git("remote", "add", "origin", "nostr://not-a-key/repo")
	r.git("remote", "add", "good", nurl(bobPK, "repo"))
	_, err := r.resolve("")
	if err == nil || !strings.Contains(err.Error(), "remote origin") || !strings.Contains(err.Error(), "git remote set-url origin") {
		t.Fatalf("got %v", err)
	}
}

func TestResolveInvalidNostrRepoConfigNamesTheFix(t *testing.T) {
	r := newTestRepo(t)
	r.git("config", "nostr.repo", "garbage")
	_, err := r.resolve("")
	if err == nil || !strings.Contains(err.Error(), "git config nostr.repo <naddr|nostr-url>") {
		t.Fatalf("got %v", err)
	}
}

// Spec order step 5: "maintainers.yaml only when no Nostr coordinate is configured".
func TestResolveMaintainersYAMLOnlyWhenNothingElse(t *testing.T) {
	r := newTestRepo(t)
	r.write("maintainers.yaml", "identifier: legacy-repo\nmaintainers:\n  - "+npub(bobPK)+"\n  - "+npub(alicePK)+"\nrelays:\n  - relay.legacy.example\n  - wss://r2.example\n")
	got, err := r.resolve("")
	if err != nil {
		t.Fatal(err)
	}
	if got.Source != SourceMaintainersYAML || got.Coordinate != coord(bobPK, "legacy-repo") ||
		!reflect.DeepEqual(got.Relays, []string{"wss://relay.legacy.example", "wss://r2.example"}) || !strings.HasSuffix(got.Detail, "maintainers.yaml") {
		t.Fatalf("got %+v", got)
	}
	r.git("remote", "add", "somewhere", nurl(carolPK, "configured"))
	got, err = r.resolve("")
	if err != nil || got.Source != SourceSoleRemote || got.Coordinate != coord(carolPK, "configured") {
		t.Fatalf("a configured nostr remote must beat maintainers.yaml: %+v, %v", got, err)
	}
}

func TestResolveMaintainersYAMLErrors(t *testing.T) {
	for name, body := range map[string]string{
		"no identifier":  "maintainers: [" + npub(bobPK) + "]\n",
		"no maintainers": "identifier: x\n",
		"bad first npub": "identifier: x\nmaintainers: [npub1nope]\n",
		"not yaml":       "identifier: [unterminated\n",
	} {
		t.Run(name, func(t *testing.T) {
			r := newTestRepo(t)
			r.write("maintainers.yaml", body)
			if _, err := r.resolve(""); err == nil || !strings.Contains(err.Error(), "maintainers.yaml") {
				t.Fatalf("got %v", err)
			}
		})
	}
}

func TestResolveNothingConfiguredSaysWhatToRun(t *testing.T) {
	r := newTestRepo(t)
	r.git("remote", "add", "origin", "https://github.com/a/b.git")
	_, err := r.resolve("")
	if !errors.Is(err, ErrNoCoordinate) || !strings.Contains(err.Error(), "--repo") {
		t.Fatalf("got %v", err)
	}
}

func TestResolveWithoutCheckout(t *testing.T) {
	sel, err := ResolveWithoutCheckout(EncodeNaddr(coord(alicePK, "r"), []string{"relay.one"}))
	if err != nil || sel.Coordinate != coord(alicePK, "r") || sel.Source != SourceFlag || !reflect.DeepEqual(sel.Relays, []string{"wss://relay.one"}) {
		t.Fatalf("got %+v, %v", sel, err)
	}
	if _, err := ResolveWithoutCheckout("origin"); err == nil || !strings.Contains(err.Error(), "needs a Git checkout") {
		t.Fatalf("remote name without checkout: %v", err)
	}
}

func TestSetNostrRepoIsReadByGitAndByResolution(t *testing.T) {
	r := newTestRepo(t)
	r.git("remote", "add", "origin", nurl(alicePK, "origin"))
	naddr := EncodeNaddr(coord(bobPK, "followed"), nil)
	c := r.open()
	if err := c.SetNostrRepo(naddr); err != nil {
		t.Fatal(err)
	}
	if got := r.git("config", "--get", "nostr.repo"); got != naddr {
		t.Fatalf("git config nostr.repo = %q, want %q", got, naddr)
	}
	if got := r.git("config", "--get", "remote.origin.url"); got != nurl(alicePK, "origin") {
		t.Fatalf("SetNostrRepo disturbed origin: %q", got)
	}
	sel, err := r.resolve("")
	if err != nil || sel.Source != SourceGitConfig || sel.Coordinate != coord(bobPK, "followed") {
		t.Fatalf("got %+v, %v", sel, err)
	}
	if err := c.SetNostrRepo("nostr://nope"); err == nil {
		t.Fatal("SetNostrRepo accepted a non-naddr")
	}
}

func TestSetOriginCreatesOrRepointsTheRemote(t *testing.T) {
	r := newTestRepo(t)
	c := r.open()
	u := nurl(bobPK, "repo", "relay.one")
	if err := c.SetOrigin(u); err != nil {
		t.Fatal(err)
	}
	if got := r.git("remote", "get-url", "origin"); got != u {
		t.Fatalf("origin = %q", got)
	}
	if got := r.git("config", "--get", "remote.origin.fetch"); got != "+refs/heads/*:refs/remotes/origin/*" {
		t.Fatalf("fetch refspec %q", got)
	}
	// Same coordinate: a protocol-specific pushurl is the user's choice and stays.
	r.git("config", "remote.origin.pushurl", "nostr://ssh/"+npub(bobPK)+"/repo")
	r.git("config", "--add", "remote.origin.pushurl", "git@github.com:me/repo.git")
	if err := r.open().SetOrigin(nurl(bobPK, "repo", "relay.two")); err != nil {
		t.Fatal(err)
	}
	if got := r.git("config", "--get-all", "remote.origin.pushurl"); got != "nostr://ssh/"+npub(bobPK)+"/repo\ngit@github.com:me/repo.git" {
		t.Fatalf("pushurls for the same coordinate: %q", got)
	}
	// Another coordinate: a nostr:// pushurl to the old one would keep
	// publishing there, so it goes; other pushurls stay.
	u2 := nurl(carolPK, "repo")
	if err := r.open().SetOrigin(u2); err != nil {
		t.Fatal(err)
	}
	if got := r.git("remote", "get-url", "origin"); got != u2 {
		t.Fatalf("origin = %q", got)
	}
	if got := r.git("config", "--get-all", "remote.origin.pushurl"); got != "git@github.com:me/repo.git" {
		t.Fatalf("pushurls after moving to another coordinate: %q", got)
	}
	if err := c.SetOrigin("https://github.com/x/y"); err == nil {
		t.Fatal("SetOrigin accepted a non-nostr URL")
	}
}
