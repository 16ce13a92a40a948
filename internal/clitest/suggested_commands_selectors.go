package clitest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Suggested returns the command of the guidance line "... with: <prefix>...".
func Suggested(t *testing.T, m map[string]any, prefix string) string {
	t.Helper()
	for _, g := range ToStrings(m["guidance"]) {
		if _, cmd, ok := strings.Cut(g, " with: "); ok && strings.HasPrefix(cmd, prefix) {
			return cmd
		}
	}
	t.Fatalf("no guidance names %q: %q", prefix, m["guidance"])
	return ""
}

// RunSuggested runs a printed command word by word as p, in w's directory
// (not a checkout) and w's roster home, and requires success.
func RunSuggested(t *testing.T, w *MutWorld, p Person, now int64, command string) map[string]any {
	t.Helper()
	return RunSuggestedIn(t, w, w.Home, p, now, command)
}

// RunSuggestedIn is runSuggested in the roster home of env.
func RunSuggestedIn(t *testing.T, w *MutWorld, env map[string]string, p Person, now int64, command string) map[string]any {
	t.Helper()
	command, _, _ = strings.Cut(command, "  # ")
	args := append(strings.Fields(strings.TrimPrefix(command, "roster ")), "--json")
	r := Invocation{Env: WithKey(env, p), Dir: w.Dir, Now: time.Unix(now, 0)}.Roster(t, args...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("%q as %s: exit %d\n%s%s", command, p.Name, r.Code, r.Out, r.Err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.Out)
	}
	return m
}
