package workspace_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

// A workspace write says what it changed (a reader granted, a section
// added, a channel moved), not the whole workspace again, and points at
// `workspace show` for the rest.
func TestAWorkspaceWriteSaysWhatChangedNotTheWholeWorkspace(t *testing.T) {
	t.Parallel()
	w := clitest.ImportedWorld(t)
	bob := w.Npub(clitest.SwViewerSK)
	r := w.MustAs(clitest.SwOwnerSK, "workspace", "grant", bob, "--role", "viewer")
	for _, want := range []string{"workspace grant: revision ", "can now read it as viewer", "the whole workspace: roster workspace show"} {
		if !strings.Contains(r.Out, want) {
			t.Errorf("grant output lacks %q:\n%s", want, r.Out)
		}
	}
	if strings.Contains(r.Out, "sections:") || strings.Contains(r.Out, "readers:") {
		t.Errorf("grant reprinted the whole workspace:\n%s", r.Out)
	}
	r = w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Projects")
	if !strings.Contains(r.Out, "section added: Projects") || strings.Count(r.Out, "\n") > 4 {
		t.Errorf("section add output:\n%s", r.Out)
	}
	ch := sectionstest.Load(t).Legacy(t).Channel
	r = w.MustAs(clitest.SwOwnerSK, "workspace", "move", ch, "--to", "Projects")
	if !strings.Contains(r.Out, "channel "+ch+": moved from ") || !strings.Contains(r.Out, " to Projects") {
		t.Errorf("move output:\n%s", r.Out)
	}
}

// A workspace roster created from nothing does not claim to have migrated
// a legacy event.
func TestACreatedWorkspaceDoesNotSayItMigratedALegacyEvent(t *testing.T) {
	t.Parallel()
	w := clitest.NewSWWorld(t)
	r := w.MustAs(clitest.SwOwnerSK, "workspace", "create")
	if strings.Contains(r.Out, "migrated") || !strings.Contains(r.Out, "created an empty workspace") {
		t.Fatalf("create output:\n%s", r.Out)
	}
}
