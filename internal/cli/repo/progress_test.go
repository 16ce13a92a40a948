package repo_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/root"
)

// runWithTTY runs roster with stderr reported as a terminal or not.
func runWithTTY(t *testing.T, env map[string]string, errTTY bool, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	s := &cmdutil.IoStreams{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(k string) string { return env[k] },
		Now: time.Now, ErrTTY: errTTY}
	code = root.RunContext(context.Background(), clitest.Tree(), args, s, cmdutil.Seams{})
	return out.String(), errb.String(), code
}

// Rule (progress): a progress indicator on stderr while relays are read, only on a
// TTY, erased when discovery ends, and never on stdout.
func TestProgressOnlyOnTerminalStderr(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	for _, r := range relays {
		clitest.Publish(t, r.URL(), clitest.LeadShaped(t, "proj")...)
	}
	args := append([]string{"repo", "--json", "--repo", clitest.Alice.Naddr("proj")}, clitest.RelayArgs(relays)...)

	out, errs, code := runWithTTY(t, clitest.TestEnv(t), true, args...)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "reading relays: 2 of 2 done") || !strings.HasSuffix(errs, "\r\x1b[K") {
		t.Fatalf("TTY stderr lacks the progress line or does not erase it: %q", errs)
	}
	if strings.Contains(out, "reading relays") {
		t.Fatalf("progress leaked to stdout: %q", out)
	}

	_, errs, code = runWithTTY(t, clitest.TestEnv(t), false, args...)
	if code != cmdutil.ExitOK || errs != "" {
		t.Fatalf("non-TTY stderr must stay empty, exit %d: %q", code, errs)
	}
}

// The progress line never calls a relay that timed out an answer.
func TestProgressDoesNotCountASilentRelayAsAnswered(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), clitest.LeadShaped(t, "proj")...)
	relays[1].SetSilent(true)
	args := append([]string{"repo", "--timeout", "1s", "--repo", clitest.Alice.Naddr("proj")}, clitest.RelayArgs(relays)...)
	_, errs, code := runWithTTY(t, clitest.TestEnv(t), true, args...)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(errs, "2 of 2 answered") || !strings.Contains(errs, "reading relays: 2 of 2 done") {
		t.Fatalf("progress with a silent relay: %q", errs)
	}
}
