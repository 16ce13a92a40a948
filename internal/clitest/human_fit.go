package clitest

import (
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// FitRun runs args as inv on a fake terminal of cols columns (ttyOut) or
// in a pipe, and fails unless roster exits 0.
func FitRun(t *testing.T, inv Invocation, ttyOut bool, cols string, args ...string) string {
	t.Helper()
	e := map[string]string{"NO_COLOR": "1", "COLUMNS": cols}
	for k, v := range inv.Env {
		e[k] = v
	}
	inv.Env, inv.OutTTY = e, ttyOut
	r := inv.Roster(t, args...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("roster %v (tty %v): exit %d\n%s%s", args, ttyOut, r.Code, r.Out, r.Err)
	}
	return r.Out
}
