package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// docs/json.md: "`<`, `>` and `&` are printed literally, not escaped", and the
// error object is {"error": {"code", "message", "details", "commands"}} in
// that order. The outside-a-checkout error carries "<naddr|...>" and "&&".
func TestJSONErrorPrintsLiteralAnglesAndAmpersands(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}, Dir: t.TempDir()}.Roster(t, "repo", "--json")
	if r.Code != cmdutil.ExitUsage {
		t.Fatalf("exit %d, want %d; out %q err %q", r.Code, cmdutil.ExitUsage, r.Out, r.Err)
	}
	if strings.Contains(r.Out, `\u003c`) || strings.Contains(r.Out, `\u0026`) {
		t.Fatalf("error JSON escapes <, > or &:\n%s", r.Out)
	}
	if !strings.Contains(r.Out, "<naddr|nostr://npub/identifier>") || !strings.Contains(r.Out, "&&") {
		t.Fatalf("error JSON lost its commands:\n%s", r.Out)
	}
}

func TestJSONErrorFieldsInDocumentedOrder(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}, Dir: t.TempDir()}.Roster(t, "repo", "--json")
	last := -1
	for _, k := range []string{`"error"`, `"code"`, `"message"`, `"details"`, `"commands"`} {
		i := strings.Index(r.Out, k)
		if i < 0 || i < last {
			t.Fatalf("field %s missing or out of order (want error, code, message, details, commands):\n%s", k, r.Out)
		}
		last = i
	}
}

// writeJSON is shared by every command's --json output.
func TestWriteJSONPrintsLiteralAnglesAndAmpersands(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	a := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: &out}}
	if err := cmdutil.WriteJSON(a, map[string]string{"command": "a <b> && c"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"a <b> && c"`) {
		t.Fatalf("writeJSON escaped HTML characters: %s", out.String())
	}
}
