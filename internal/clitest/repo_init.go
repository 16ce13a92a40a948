package clitest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/report"
)

// InitTestCheckout creates a Git checkout named dirName with one commit and
// returns its directory and root commit.
func InitTestCheckout(t *testing.T, dirName string) (string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), dirName)
	GitInit(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	GitRun(t, dir, "add", "README")
	GitRun(t, dir, "commit", "-q", "-m", "first")
	return dir, GitRun(t, dir, "rev-parse", "HEAD")
}

func InitRelayFlags(relays []*devrelay.Relay) []string {
	var out []string
	for _, r := range relays {
		out = append(out, "--relay", r.URL())
	}
	return out
}

func InitStoredAnnouncements(r *devrelay.Relay, pk string) []*nostr.Event {
	return r.Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{pk}})
}

// InitJSON is what repo init --json prints: a result (with "error" on exit
// 6) or, on a refusal, only {"error": ...}.
type InitJSON struct {
	report.RepoInit
	Error struct {
		Code     string   `json:"code"`
		Commands []string `json:"commands"`
	} `json:"error"`
}

// InitTestGitConfig reads nostr.repo and origin's URL from the checkout.
func InitTestGitConfig(t *testing.T, dir string) (nostrRepo, origin string) {
	t.Helper()
	get := func(key string) string {
		out, _ := exec.Command("git", "-C", dir, "config", "--get", key).Output()
		return strings.TrimSpace(string(out))
	}
	return get("nostr.repo"), get("remote.origin.url")
}
