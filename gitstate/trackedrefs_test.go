package gitstate

import (
	"strings"
	"testing"
)

// Clone URLs are compared as Git users write them: scheme and host
// without case, default ports, user names, trailing slashes and ".git"
// ignored, scp-like syntax as ssh://, absolute paths as file://; nostr://
// URLs name no Git server.
func TestSameCloneURLComparesURLsAsGitUsersWriteThem(t *testing.T) {
	same := [][2]string{
		{"https://Git.Example/o/r.git", "https://git.example/o/r"},
		{"https://git.example:443/o/r/", "https://git.example/o/r.git"},
		{"git@github.com:o/r.git", "ssh://git@github.com/o/r"},
		{"ssh://git@github.com:22/o/r.git", "ssh://github.com/o/r.git"},
		{"/srv/x.git", "file:///srv/x.git"},
		{"file:///srv/../srv/x", "/srv/x.git"},
	}
	for _, c := range same {
		if !SameCloneURL(c[0], c[1]) {
			t.Errorf("%q and %q name the same repository", c[0], c[1])
		}
	}
	differ := [][2]string{
		{"https://git.example/o/r", "https://git.example/o/other"},
		{"https://git.example/o/r", "http://git.example/o/r"},
		{"https://git.example:8443/o/r", "https://git.example/o/r"},
		{"nostr://npub1x/r", "nostr://npub1x/r"},
		{"", ""},
		{"relative/dir", "relative/dir"},
	}
	for _, c := range differ {
		if SameCloneURL(c[0], c[1]) {
			t.Errorf("%q and %q must not match", c[0], c[1])
		}
	}
}

// The refs a state is compared with: the local ref map, and the
// remote-tracking branches of the nostr:// remote naming the coordinate
// and of every remote whose URL is an advertised clone URL, each flagged
// when the local branch of that name is behind it; other remotes' are not
// read.
func TestReadStateRefsCountsTheRemotesOfTheAdvertisedServers(t *testing.T) {
	r := newTestRepo(t)
	old := r.commit("one")
	next := r.commit("two")
	r.git("branch", "-f", "dev", old)
	pk := strings.Repeat("ab", 32)
	r.git("remote", "add", "upstream", nurl(pk, "proj"))
	r.git("remote", "add", "origin", "https://git.example/o/proj.git")
	r.git("remote", "add", "fork", "https://elsewhere.example/o/proj.git")
	r.git("update-ref", "refs/remotes/upstream/main", next)
	r.git("update-ref", "refs/remotes/origin/dev", next)
	r.git("update-ref", "refs/remotes/fork/topic", next)
	refs, err := r.open().ReadStateRefs(coord(pk, "proj"), "", []string{"https://git.example/o/proj"})
	if err != nil {
		t.Fatal(err)
	}
	if refs.NostrRemote != "upstream" || strings.Join(refs.Remotes, ",") != "upstream,origin" {
		t.Fatalf("remotes %q %v", refs.NostrRemote, refs.Remotes)
	}
	want := []TrackingRef{{Remote: "upstream", Ref: "refs/heads/main", OID: next},
		{Remote: "origin", Ref: "refs/heads/dev", OID: next, LocalBehind: true}}
	if len(refs.Tracking) != 2 || refs.Tracking[0] != want[0] || refs.Tracking[1] != want[1] {
		t.Fatalf("tracking %+v, want %+v", refs.Tracking, want)
	}
	if refs.Tracking[1].Name() != "origin/dev" || refs.Local["refs/heads/dev"] != old {
		t.Fatalf("name %q, local %v", refs.Tracking[1].Name(), refs.Local)
	}
}

// Divergence counts the commits on each side in the local object store and
// refuses a commit the checkout does not have.
func TestDivergenceCountsEachSideAndNeedsBothCommits(t *testing.T) {
	r := newTestRepo(t)
	base := r.commit("base")
	r.commit("a1")
	a := r.commit("a2")
	r.git("checkout", "-q", "-b", "side", base)
	b := r.commit("b1")
	co := r.open()
	if x, y, err := co.Divergence(a, b); err != nil || x != 2 || y != 1 {
		t.Fatalf("Divergence = %d, %d, %v; want 2, 1", x, y, err)
	}
	if x, y, err := co.Divergence(base, a); err != nil || x != 0 || y != 2 {
		t.Fatalf("Divergence(base, a) = %d, %d, %v", x, y, err)
	}
	if _, _, err := co.Divergence(strings.Repeat("1", 40), a); err == nil {
		t.Fatal("a missing commit must be an error")
	}
}
