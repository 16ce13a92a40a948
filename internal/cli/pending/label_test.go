package pending

import (
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/projects"
	"github.com/roster-cli/roster/workspace/sections"
)

// Rule (names say what a thing is): `roster pending` labels each
// unfinished write with what it changes — a repository, a workspace, a
// project or a group — never a workspace or project as a repository.
func TestAnUnfinishedWriteIsLabelledWithWhatItChanges(t *testing.T) {
	id := strings.Repeat("ab", 32)
	for _, tc := range []struct{ pipeline, address, label string }{
		{journal.PipelineMembership, "30617:" + strings.Repeat("cd", 32) + ":widget", "repository  nostr://"},
		{journal.PipelineWorkspace, "30078:" + strings.Repeat("cd", 32) + ":ws", "workspace   30078:"},
		{sections.PipelineCommand, "30078:" + strings.Repeat("cd", 32) + ":ws", "workspace   30078:"},
		{projects.PipelineProject, "30621:" + strings.Repeat("cd", 32) + ":demo", "project     30621:"},
		{"nip-29", "nip-29:wss://relay.example'group", "group       wss://relay.example'group"},
	} {
		var b strings.Builder
		printPendingWrite(&b, report.PendingWrite{ID: id, Pipeline: tc.pipeline, Repository: tc.address, Command: []string{"x"}, Signed: time.Unix(0, 0)}, true)
		if !strings.Contains(b.String(), "  "+tc.label) {
			t.Errorf("%s: want %q in\n%s", tc.pipeline, tc.label, b.String())
		}
	}
}
