package clitest

import (
	"encoding/json"
	"strings"
	"testing"
)

// HealthCommands are the "commands" of a project health document.
func HealthCommands(t *testing.T, r Result) []string {
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

// WantHealthNext: the human report and --format github of the same health
// print every one of cmds.
func WantHealthNext(t *testing.T, w *PcWorld, cmds []string, args ...string) {
	t.Helper()
	human := w.As(PcStrangerSK, args...)
	gh := w.As(PcStrangerSK, append(args, "--format", "github")...)
	for _, c := range cmds {
		if !strings.Contains(human.Out, "next:         "+c) {
			t.Errorf("the human report lacks %q:\n%s", c, human.Out)
		}
		if !strings.Contains(gh.Out, "::notice title=roster%3A next::") || !strings.Contains(gh.Out, c) {
			t.Errorf("--format github lacks %q:\n%s", c, gh.Out)
		}
	}
}
