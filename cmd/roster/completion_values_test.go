package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// completions runs `roster __complete args...` in-process and returns the
// offered values (without descriptions) and the directive line.
func completions(t *testing.T, inv invocation, args ...string) ([]string, string) {
	t.Helper()
	r := inv.roster(t, append([]string{"__complete"}, args...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("__complete %v: exit %d %q", args, r.Code, r.Err)
	}
	var values []string
	directive := ""
	for _, line := range strings.Split(strings.TrimSpace(r.Out), "\n") {
		if strings.HasPrefix(line, ":") {
			directive = line
			continue
		}
		values = append(values, strings.SplitN(line, "\t", 2)[0])
	}
	return values, directive
}

// ":4" is cobra.ShellCompDirectiveNoFileComp: the shell offers no file names.
const noFileComp = ":4"

// --role and --seed complete their fixed values, never file names.
func TestFlagValuesCompleteRolesAndSeeds(t *testing.T) {
	t.Parallel()
	got, dir := completions(t, invocation{Env: homeEnv(t)}, "workspace", "grant", "npub1x", "--role", "")
	if strings.Join(got, ",") != "viewer,mover,manager" || dir != noFileComp {
		t.Errorf("--role: %v %s", got, dir)
	}
	got, dir = completions(t, invocation{Env: homeEnv(t)}, "dev", "relay", "--seed", "")
	if strings.Join(got, ",") != "demo" || dir != noFileComp {
		t.Errorf("--seed: %v %s", got, dir)
	}
}

// --repo completes the checkout's remote names and git config nostr.repo.
func TestRepoFlagCompletesRemotesAndNostrRepo(t *testing.T) {
	t.Parallel()
	naddr := alice.naddr("proj")
	dir, _ := checkoutSelecting(t, naddr)
	for _, args := range [][]string{
		{"remote", "add", "origin", "nostr://" + alice.npub() + "/proj"},
		{"remote", "add", "upstream", "https://git.example/proj.git"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	got, d := completions(t, invocation{Env: homeEnv(t), Dir: dir}, "repo", "--repo", "")
	if strings.Join(got, ",") != naddr+",origin,upstream" || d != noFileComp {
		t.Errorf("--repo in a checkout: %v %s", got, d)
	}
	got, d = completions(t, invocation{Env: homeEnv(t), Dir: t.TempDir()}, "repo", "health", "--repo", "")
	if len(got) != 0 || d != noFileComp {
		t.Errorf("--repo outside a checkout: %v %s", got, d)
	}
}

// --relay completes ROSTER_RELAYS, else config.yaml's relays in the home
// (--home honoured), never file names.
func TestRelayFlagCompletesConfiguredRelays(t *testing.T) {
	t.Parallel()
	env := homeEnv(t)
	env["ROSTER_RELAYS"] = "wss://a.example, wss://b.example"
	got, d := completions(t, invocation{Env: env}, "repo", "--relay", "")
	if strings.Join(got, ",") != "wss://a.example,wss://b.example" || d != noFileComp {
		t.Errorf("ROSTER_RELAYS: %v %s", got, d)
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("relays: [wss://c.example]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, d = completions(t, invocation{Env: homeEnv(t)}, "workspace", "show", "--home", home, "--relay", "")
	if strings.Join(got, ",") != "wss://c.example" || d != noFileComp {
		t.Errorf("config.yaml via --home: %v %s", got, d)
	}
	got, _ = completions(t, invocation{Env: map[string]string{"ROSTER_HOME": home}}, "repo", "--relay", "wss://x.example", "--relay", "")
	if strings.Join(got, ",") != "wss://c.example" {
		t.Errorf("a --relay already typed is not a configured relay: %v", got)
	}
}

// Completing a flag name offers only the global flags the command reads.
func TestFlagNameCompletionOffersOnlyTheGlobalFlagsUsed(t *testing.T) {
	t.Parallel()
	got, _ := completions(t, invocation{Env: homeEnv(t)}, "version", "--")
	joined := "," + strings.Join(got, ",") + ","
	if !strings.Contains(joined, ",--json,") || strings.Contains(joined, ",--repo,") || strings.Contains(joined, ",--relay,") {
		t.Errorf("version --<TAB>: %v", got)
	}
	got, _ = completions(t, invocation{Env: homeEnv(t)}, "repo", "health", "--")
	joined = "," + strings.Join(got, ",") + ","
	for _, f := range []string{"--repo", "--relay", "--offline", "--timeout", "--home", "--strict", "--jq"} {
		if !strings.Contains(joined, ","+f+",") {
			t.Errorf("repo health --<TAB> lacks %s: %v", f, got)
		}
	}
}
