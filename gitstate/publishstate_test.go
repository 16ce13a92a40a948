package gitstate

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// Descent is asked of git: an ancestor is one, a sibling is not, and an
// ancestor the checkout lacks never "descends" (false, or an error when git
// cannot tell).
func TestIsAncestorAsksGitAndFailsClosedOnMissingObjects(t *testing.T) {
	r := newTestRepo(t)
	base := r.commit("base")
	next := r.commit("next")
	r.git("checkout", "-q", "-b", "side", base)
	side := r.commit("side")
	co := r.open()
	for _, c := range []struct {
		a, d string
		want bool
	}{{base, next, true}, {next, next, true}, {next, base, false}, {side, next, false}} {
		got, err := co.IsAncestor(c.a, c.d)
		if err != nil || got != c.want {
			t.Errorf("IsAncestor(%s, %s) = %v, %v; want %v", c.a[:7], c.d[:7], got, err, c.want)
		}
	}
	if ok, _ := co.IsAncestor(strings.Repeat("1", 40), next); ok {
		t.Fatal("a missing ancestor must never descend")
	}
}

// The selected nostr remote's tracking branches read as refs/heads names,
// its symbolic HEAD left out; the remote is found by the coordinate its
// nostr:// URL names.
func TestTrackingBranchesOfTheNostrRemote(t *testing.T) {
	r := newTestRepo(t)
	c1 := r.commit("one")
	pk := strings.Repeat("ab", 32)
	r.git("remote", "add", "upstream", nurl(pk, "proj"))
	r.git("remote", "add", "other", "https://git.example/x.git")
	r.git("update-ref", "refs/remotes/upstream/main", c1)
	r.git("update-ref", "refs/remotes/upstream/dev", c1)
	r.git("symbolic-ref", "refs/remotes/upstream/HEAD", "refs/remotes/upstream/main")
	r.git("update-ref", "refs/remotes/other/x", c1)
	co := r.open()
	remote, err := co.NostrRemote(coord(pk, "proj"), "")
	if err != nil || remote != "upstream" {
		t.Fatalf("NostrRemote = %q, %v", remote, err)
	}
	got, err := co.TrackingBranches(remote)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["refs/heads/main"] != c1 || got["refs/heads/dev"] != c1 {
		t.Fatalf("TrackingBranches = %v", got)
	}
	if none, _ := co.NostrRemote(coord(pk, "other-id"), ""); none != "" {
		t.Fatalf("no remote names other-id, got %q", none)
	}
}

// ngit's shape: d, one tag per ref, HEAD as "ref: ..."; ParseState reads
// it back to the same map.
func TestStateEventRoundTripsThroughParseState(t *testing.T) {
	refs := map[string]string{"refs/heads/main": strings.Repeat("a", 40),
		"refs/tags/v1": strings.Repeat("1", 40), "refs/tags/v1^{}": strings.Repeat("a", 40), "HEAD": "ref: refs/heads/main"}
	evt := StateEvent("proj", "refs/heads/main", refs, 42)
	if evt.Tags[0][0] != "d" || evt.Tags[len(evt.Tags)-1][0] != "HEAD" || len(evt.Tags) != 5 {
		t.Fatalf("tags %v", evt.Tags)
	}
	if err := evt.Sign(nostr.GeneratePrivateKey()); err != nil {
		t.Fatal(err)
	}
	st, err := ParseState(evt)
	if err != nil || st.Head != "refs/heads/main" || len(st.Refs) != 3 || len(st.Invalid) != 0 {
		t.Fatalf("%+v %v", st, err)
	}
}
