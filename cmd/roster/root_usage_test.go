package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// A typo in a subcommand is a usage error (exit 2, docs/exit-codes.md), not the
// group's help with exit 0: a script must not pass on `roster cache clera`.
func TestUnknownSubcommandOfAGroupIsUsageError(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"cache", "clera"}, {"dev", "relais"}, {"workspace", "shwo"}, {"project", "shwo"}, {"group", "shwo"}} {
		r := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.Roster(t, args...)
		if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "unknown command") || !strings.Contains(r.Err, "run: roster "+args[0]+" --help") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, r.Code, r.Out, r.Err)
		}
	}
	r := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.Roster(t, "cache")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "roster cache [command]") {
		t.Errorf("a group without arguments still shows its help: exit %d, %q", r.Code, r.Out)
	}
}

// Every usage error names the help to read, even cobra's own.
func TestUsageErrorsNameTheHelpCommand(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"repo", "bogus"}, {"whoami", "--bogus"}, {"repo", "health", "--strict=maybe"}} {
		r := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.Roster(t, args...)
		if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "  run: roster ") || !strings.Contains(r.Err, " --help") {
			t.Errorf("%v: exit %d, stderr %q", args, r.Code, r.Err)
		}
	}
}

// --timeout 0 or a negative duration would silently become the 10s default
// for relays (and an immediate deadline for NIP-05): refuse it.
func TestNonPositiveTimeoutIsUsageError(t *testing.T) {
	t.Parallel()
	for _, d := range []string{"0s", "-1s"} {
		r := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}, Dir: t.TempDir()}.Roster(t, "repo", "--timeout", d, "--repo", clitest.Alice.Naddr("proj"), "--relay", "ws://127.0.0.1:1")
		if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "--timeout must be a positive duration") {
			t.Errorf("--timeout %s: exit %d, stderr %q", d, r.Code, r.Err)
		}
	}
}

// A --home (or ROSTER_HOME) that is a file is named as the problem, with
// exit 2, by every command that needs the home; a network read goes on
// without the cache and says why.
func TestHomeThatIsAFileIsUsageError(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "home")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ROSTER_HOME": file}
	for _, args := range [][]string{{"whoami"}, {"cache", "info"}, {"repo", "--offline", "--repo", clitest.Alice.Naddr("proj")}} {
		r := clitest.Invocation{Env: env, Dir: t.TempDir()}.Roster(t, args...)
		if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "is a file, not a directory: pass --home <directory>") {
			t.Errorf("%v: exit %d, stderr %q", args, r.Code, r.Err)
		}
	}
}
