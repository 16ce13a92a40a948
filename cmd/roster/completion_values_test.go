package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"
)

// --role and --seed complete their fixed values, never file names.
func TestFlagValuesCompleteRolesAndSeeds(t *testing.T) {
	t.Parallel()
	got, dir := clitest.Completions(t, clitest.Invocation{Env: clitest.HomeEnv(t)}, "workspace", "grant", "npub1x", "--role", "")
	if strings.Join(got, ",") != "viewer,mover,manager" || dir != clitest.NoFileComp {
		t.Errorf("--role: %v %s", got, dir)
	}
	got, dir = clitest.Completions(t, clitest.Invocation{Env: clitest.HomeEnv(t)}, "dev", "relay", "--seed", "")
	if strings.Join(got, ",") != "demo" || dir != clitest.NoFileComp {
		t.Errorf("--seed: %v %s", got, dir)
	}
}

// --repo completes the checkout's remote names and git config nostr.repo.
func TestRepoFlagCompletesRemotesAndNostrRepo(t *testing.T) {
	t.Parallel()
	naddr := clitest.Alice.Naddr("proj")
	dir, _ := clitest.CheckoutSelecting(t, naddr)
	for _, args := range [][]string{
		{"remote", "add", "origin", "nostr://" + clitest.Alice.Npub() + "/proj"},
		{"remote", "add", "upstream", "https://git.example/proj.git"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	got, d := clitest.Completions(t, clitest.Invocation{Env: clitest.HomeEnv(t), Dir: dir}, "repo", "--repo", "")
	if strings.Join(got, ",") != naddr+",origin,upstream" || d != clitest.NoFileComp {
		t.Errorf("--repo in a checkout: %v %s", got, d)
	}
	got, d = clitest.Completions(t, clitest.Invocation{Env: clitest.HomeEnv(t), Dir: t.TempDir()}, "repo", "health", "--repo", "")
	if len(got) != 0 || d != clitest.NoFileComp {
		t.Errorf("--repo outside a checkout: %v %s", got, d)
	}
}

// --relay completes ROSTER_RELAYS, else config.yaml's relays in the home
// (--home honoured), never file names.
func TestRelayFlagCompletesConfiguredRelays(t *testing.T) {
	t.Parallel()
	env := clitest.HomeEnv(t)
	env["ROSTER_RELAYS"] = "wss://a.example, wss://b.example"
	got, d := clitest.Completions(t, clitest.Invocation{Env: env}, "repo", "--relay", "")
	if strings.Join(got, ",") != "wss://a.example,wss://b.example" || d != clitest.NoFileComp {
		t.Errorf("ROSTER_RELAYS: %v %s", got, d)
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("relays: [wss://c.example]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, d = clitest.Completions(t, clitest.Invocation{Env: clitest.HomeEnv(t)}, "workspace", "show", "--home", home, "--relay", "")
	if strings.Join(got, ",") != "wss://c.example" || d != clitest.NoFileComp {
		t.Errorf("config.yaml via --home: %v %s", got, d)
	}
	got, _ = clitest.Completions(t, clitest.Invocation{Env: map[string]string{"ROSTER_HOME": home}}, "repo", "--relay", "wss://x.example", "--relay", "")
	if strings.Join(got, ",") != "wss://c.example" {
		t.Errorf("a --relay already typed is not a configured relay: %v", got)
	}
}

// Completing a flag name offers only the global flags the command reads.
func TestFlagNameCompletionOffersOnlyTheGlobalFlagsUsed(t *testing.T) {
	t.Parallel()
	got, _ := clitest.Completions(t, clitest.Invocation{Env: clitest.HomeEnv(t)}, "version", "--")
	joined := "," + strings.Join(got, ",") + ","
	if !strings.Contains(joined, ",--json,") || strings.Contains(joined, ",--repo,") || strings.Contains(joined, ",--relay,") {
		t.Errorf("version --<TAB>: %v", got)
	}
	got, _ = clitest.Completions(t, clitest.Invocation{Env: clitest.HomeEnv(t)}, "repo", "health", "--")
	joined = "," + strings.Join(got, ",") + ","
	for _, f := range []string{"--repo", "--relay", "--offline", "--timeout", "--home", "--strict", "--jq"} {
		if !strings.Contains(joined, ","+f+",") {
			t.Errorf("repo health --<TAB> lacks %s: %v", f, got)
		}
	}
}
