//go:build linux

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/commands"
	"github.com/roster-cli/roster/internal/cli/root"
)

// Rule (login --nsec on a terminal): the key is read from a no-echo prompt. The key typed on a real pseudo-terminal is accepted and the
// terminal never echoes it back.
func TestLoginNsecPromptOnATerminalDoesNotEcho(t *testing.T) {
	t.Parallel()
	signerTestKeyring(t)
	k := newTestKey(t)
	env := homeEnv(t)
	master, slave := openPty(t)
	var out bytes.Buffer
	var errb syncBuffer
	s := &cmdutil.IoStreams{In: slave, Out: &out, Err: &errb, InTTY: true,
		Getenv: func(key string) string { return env[key] }, Now: time.Now}
	done := make(chan int, 1)
	go func() {
		done <- root.RunContext(context.Background(), commands.All, []string{"login", "--nsec"}, s, cmdutil.Seams{})
	}()

	// Type only once the prompt is shown and the terminal's echo is off.
	typeAtPrompt(t, master, slave, &errb, "nsec or hex secret key: ", 1, k.nsec)
	select {
	case code := <-done:
		if code != 0 || !strings.Contains(out.String(), k.npub) || !strings.Contains(errb.String(), "nsec or hex secret key: ") {
			t.Fatalf("exit %d out %q err %q", code, out.String(), errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("login did not finish")
	}
	t.Cleanup(func() { invocation{Env: env}.roster(t, "logout") })

	shown := terminalShows(t, master, slave)
	if strings.Contains(shown, k.nsec) || strings.Contains(shown, k.nsec[:20]) {
		t.Fatalf("the terminal echoed the secret: %q", shown)
	}
}
