//go:build linux

package account_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/root"
)

// Rule (login --nsec on a terminal): the key is read from a no-echo prompt. The key typed on a real pseudo-terminal is accepted and the
// terminal never echoes it back.
func TestLoginNsecPromptOnATerminalDoesNotEcho(t *testing.T) {
	t.Parallel()
	clitest.SignerTestKeyring(t)
	k := clitest.NewTestKey(t)
	env := clitest.HomeEnv(t)
	master, slave := clitest.OpenPty(t)
	var out bytes.Buffer
	var errb clitest.SyncBuffer
	s := &cmdutil.IoStreams{In: slave, Out: &out, Err: &errb, InTTY: true,
		Getenv: func(key string) string { return env[key] }, Now: time.Now}
	done := make(chan int, 1)
	go func() {
		done <- root.RunContext(context.Background(), clitest.Tree(), []string{"login", "--nsec"}, s, cmdutil.Seams{})
	}()

	// Type only once the prompt is shown and the terminal's echo is off.
	clitest.TypeAtPrompt(t, master, slave, &errb, "nsec or hex secret key: ", 1, k.Nsec)
	select {
	case code := <-done:
		if code != 0 || !strings.Contains(out.String(), k.Npub) || !strings.Contains(errb.String(), "nsec or hex secret key: ") {
			t.Fatalf("exit %d out %q err %q", code, out.String(), errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("login did not finish")
	}
	t.Cleanup(func() { clitest.Invocation{Env: env}.Roster(t, "logout") })

	shown := clitest.TerminalShows(t, master, slave)
	if strings.Contains(shown, k.Nsec) || strings.Contains(shown, k.Nsec[:20]) {
		t.Fatalf("the terminal echoed the secret: %q", shown)
	}
}
