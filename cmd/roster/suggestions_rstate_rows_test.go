package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rows of TestEveryPrintedCommandMovesForward for repository state
// (repo state, repo state publish, the Git servers) and projects (project
// create/show/list/update/relate/delete/health), each provoking one
// suggestion site of suggestionSites through the real command.
func init() { suggestionRows = append(suggestionRows, rstateRows...) }

// pasteAs runs a printed roster command as the person holding sk (""
// for nobody's key) in a fresh home of their own, with --json, and
// requires it to get further than before.
func pasteAs(t *testing.T, sk string, before result, line string) step {
	t.Helper()
	line, _, _ = strings.Cut(line, "  # ")
	env := map[string]string{"ROSTER_HOME": t.TempDir()}
	if sk != "" {
		env["ROSTER_SECRET_KEY"] = sk
	}
	words := shellWords(t, line)
	if len(words) == 0 || words[0] != "roster" {
		t.Fatalf("not a roster command: %q", line)
	}
	r := invocation{Env: env}.roster(t, append(words[1:], "--json")...)
	got := step{Code: r.Code, Out: r.Out, Err: r.Err}
	requireFurther(t, line, before, got)
	return got
}

// healthCommands are the "commands" of a project health document.
func healthCommands(t *testing.T, r result) []string {
	t.Helper()
	var h struct {
		Schema   string   `json:"schema"`
		Commands []string `json:"commands"`
	}
	if err := json.Unmarshal([]byte(r.Out), &h); err != nil || h.Schema != "roster.project-health/v1" {
		t.Fatalf("exit %d %v\n%s%s", r.Code, err, r.Out, r.Err)
	}
	return h.Commands
}

// wantHealthNext: the human report and --format github of the same health
// print every one of cmds.
func wantHealthNext(t *testing.T, w *pcWorld, cmds []string, args ...string) {
	t.Helper()
	human := w.as(pcStrangerSK, args...)
	gh := w.as(pcStrangerSK, append(args, "--format", "github")...)
	for _, c := range cmds {
		if !strings.Contains(human.Out, "next:         "+c) {
			t.Errorf("the human report lacks %q:\n%s", c, human.Out)
		}
		if !strings.Contains(gh.Out, "::notice title=roster%3A next::") || !strings.Contains(gh.Out, c) {
			t.Errorf("--format github lacks %q:\n%s", c, gh.Out)
		}
	}
}

var rstateRows = []suggestionRow{
	{"project health with a member no relay holds: project show", func(t *testing.T) {
		w := newPCWorld(t)
		good := w.memberRepo("alpha", false)
		w.identity(nostr.Now()-10, nostr.Tag{"a", good}, nostr.Tag{"a", "30617:" + pubOf(t, prLeadSK) + ":nowhere"})
		args := []string{"project", "health", w.coord.String()}
		r := w.as(pcStrangerSK, append(args, "--json")...)
		if r.Code != cmdutil.ExitIncomplete {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		cmds := healthCommands(t, r)
		c := commandStarting(t, cmds, "roster project show")
		wantHealthNext(t, w, cmds, args...)
		if got := pasteAs(t, pcStrangerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project health with a relay silent about the project: project show", func(t *testing.T) {
		w := newPCWorld(t)
		w.identity(nostr.Now() - 10)
		args := []string{"project", "health", w.coord.String(), "--relay", "ws://127.0.0.1:1"}
		r := w.as(pcStrangerSK, append(args, "--json")...)
		if r.Code != cmdutil.ExitIncomplete {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		cmds := healthCommands(t, r)
		c := commandStarting(t, cmds, "roster project show")
		wantHealthNext(t, w, cmds, args...)
		pasteAs(t, pcStrangerSK, r, c)
	}},
}
