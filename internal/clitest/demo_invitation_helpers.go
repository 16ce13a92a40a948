package clitest

import (
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/reference"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// CarolPreviewsAcceptance runs `roster repo accept --dry-run` as Carol in a
// freshly seeded demo repository, where her invitation is pending: alice's
// history waits on bob's start and dave's end, and bob must follow her
// acceptance too. extra adds flags such as --json.
func CarolPreviewsAcceptance(t *testing.T, extra ...string) Result {
	t.Helper()
	relay := devrelay.StartN(t, 1, devrelay.Options{Authorities: reference.Authorities()})[0]
	// The demo's objects on a real Git server: a membership change checks
	// every state OID is advertised by the component's clone servers.
	work := NewGitWork(t)
	bare, cloneURL := NewBareServer(t)
	main := work.Commit("main")
	work.Git("checkout", "-q", "-b", "release-1.x")
	rel := work.Commit("release")
	work.Git("tag", "-a", "-m", "v1.0.0", "v1.0.0")
	work.PushTo(bare, "main", "release-1.x", "v1.0.0")
	demo, err := devrelay.SeedDemoWith(relay, time.Now(), devrelay.DemoGit{CloneURL: cloneURL, Refs: map[string]string{
		"refs/heads/main": main, "refs/heads/release-1.x": rel,
		"refs/tags/v1.0.0": work.Rev("v1.0.0"), "refs/tags/v1.0.0^{}": rel}})
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ROSTER_SECRET_KEY": devrelay.DemoKey("carol"), "ROSTER_HOME": t.TempDir()}
	args := append(append([]string{"repo", "accept", "--dry-run"}, extra...), "--repo", demo.Naddr, "--relay", relay.URL())
	return Invocation{Env: env, Dir: t.TempDir()}.Roster(t, args...)
}

// NextSection is the human "next:" section of r's output; the test fails
// unless the command succeeded and printed one.
func NextSection(t *testing.T, r Result) string {
	t.Helper()
	_, next, ok := strings.Cut(r.Out, "\nnext:\n")
	if r.Code != cmdutil.ExitOK || !ok {
		t.Fatalf("exit %d, no next: section\n%s%s", r.Code, r.Out, r.Err)
	}
	return next
}

// DemoNpub is the npub of a demo persona.
func DemoNpub(t *testing.T, name string) string {
	t.Helper()
	pk := PubOf(t, devrelay.DemoKey(name))
	n, err := nip19.EncodePublicKey(pk)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
