package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (docs/exit-codes.md): group show with a relay that did not answer is
// incomplete evidence (exit 4, code incomplete), naming the relay, its
// failure and the retry with the same --relay flags.
func TestGroupShowUnreachableRelayIsIncompleteNotNotFound(t *testing.T) {
	t.Parallel()
	r := invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.roster(t, "group", "show", pcHome, "--relay", deadRelay, "--json", "--timeout", "5s")
	e := errorBody(t, r)
	if r.Code != cmdutil.ExitIncomplete || e.Code != "incomplete" || !strings.Contains(e.Message, deadRelay) ||
		!strings.Contains(e.Message, "connection refused") || strings.Contains(e.Message, "failed failed") {
		t.Fatalf("exit %d: %+v", r.Code, e)
	}
	if !strings.Contains(e.Commands[0], "roster group show "+pcHome+" --relay "+deadRelay) {
		t.Fatalf("commands %q", e.Commands)
	}
	// A relay that answers without the group: not-found.
	w := newPCWorld(t)
	r = invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.roster(t, "group", "show", pcHome, "--relay", w.relay.URL(), "--json", "--timeout", "5s")
	if e := errorBody(t, r); r.Code != cmdutil.ExitIncomplete || e.Code != "not-found" {
		t.Fatalf("exit %d: %+v", r.Code, e)
	}
}
