package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

func TestUnknownFlagIsUsageError(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: map[string]string{}}.Roster(t, "--no-such-flag")
	if r.Code != cmdutil.ExitUsage {
		t.Fatalf("exit %d, want %d (stderr %q)", r.Code, cmdutil.ExitUsage, r.Err)
	}
	if !strings.Contains(r.Err, "no-such-flag") {
		t.Fatalf("stderr %q does not name the flag", r.Err)
	}
}

func TestJSONErrorGoesToStdout(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: map[string]string{}}.Roster(t, "--json", "no-such-command")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Out, `"code": "usage"`) {
		t.Fatalf("exit %d out %q", r.Code, r.Out)
	}
}
