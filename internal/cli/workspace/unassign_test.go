package workspace_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

// rolesWorld is an imported workspace with a viewer, a mover, a manager and
// a reader whose grant was revoked (swForgerSK plays the revoked reader, who
// read once, so their cache holds the workspace; an outsider is anyone else).
func rolesWorld(t *testing.T) *clitest.SwWorld {
	t.Helper()
	w := clitest.ImportedWorld(t)
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwViewerSK), "--role", "viewer")
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwMoverSK), "--role", "mover")
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwManagerSK), "--role", "manager")
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwForgerSK), "--role", "mover")
	w.MustAs(clitest.SwForgerSK, "workspace", "show", "--owner", w.OwnerNpub())
	w.MustAs(clitest.SwOwnerSK, "workspace", "revoke", w.Npub(clitest.SwForgerSK))
	return w
}

// "A mover may read and submit kind 9053", which assigns and unassigns: a
// move with a null section_id takes the channel out of its section. The
// owner and a mover may; a viewer, a revoked reader and an outsider are
// refused before signing; a channel in no section is refused too; a refusal
// leaves the relay's state as it was.
func TestWorkspaceUnassignIsAMoveWithNoSection(t *testing.T) {
	t.Parallel()
	w := rolesWorld(t)
	ch := sectionstest.Load(t).Legacy(t).Channel
	before := w.Stored()
	for _, c := range []struct {
		who  string
		sk   string
		exit int
		code string
	}{
		{"viewer", clitest.SwViewerSK, cmdutil.ExitRefused, "role-refused"},
		{"revoked reader", clitest.SwForgerSK, cmdutil.ExitIncomplete, "no-projection"},
		{"outsider", clitest.SwOutsiderSK, cmdutil.ExitIncomplete, "no-projection"},
	} {
		r := w.As(c.sk, "workspace", "unassign", ch, "--owner", w.OwnerNpub(), "--json")
		if e := clitest.DecodeOut[clitest.ErrorOut](t, r); r.Code != c.exit || e.Error.Code != c.code {
			t.Errorf("%s: exit %d %s", c.who, r.Code, r.Out)
		}
	}
	if st := w.Stored(); st.Revision != before.Revision || len(st.Assignments) != 1 {
		t.Fatalf("a refused unassign changed the relay's state: %+v", st)
	}

	out := clitest.DecodeOut[report.WorkspaceChange](t, w.MustAs(clitest.SwMoverSK, "workspace", "unassign", strings.ToUpper(ch), "--owner", w.OwnerNpub(), "--json"))
	if out.Command != "unassign" || out.Kind != sections.KindMove || out.Revision != before.Revision+1 || len(out.Workspace.Assignments) != 0 {
		t.Fatalf("unassign result %+v", out)
	}
	st := w.Stored()
	if len(st.Assignments) != 0 || st.Revision != before.Revision+1 || st.LayoutRevision != before.LayoutRevision {
		t.Fatalf("relay state after unassign: %+v", st)
	}
	r := w.As(clitest.SwOwnerSK, "workspace", "unassign", ch, "--json")
	if e := clitest.DecodeOut[clitest.ErrorOut](t, r); r.Code != cmdutil.ExitRefused || e.Error.Code != "invalid-command" || !strings.Contains(e.Error.Message, "in no section") {
		t.Fatalf("unassign of a channel in no section: exit %d %s", r.Code, r.Out)
	}
	// The rule's slug is the details' business, not the sentence's.
	if e := clitest.DecodeOut[clitest.ErrorOut](t, r); strings.Contains(e.Error.Message, "channel-unassigned") || e.Error.Details["rule"] != "channel-unassigned" {
		t.Fatalf("the message carries the rule slug, or details.rule lacks it: %s", r.Out)
	}
	w.MustAs(clitest.SwOwnerSK, "workspace", "move", ch, "--to", sectionstest.Load(t).Legacy(t).Name)
	w.MustAs(clitest.SwOwnerSK, "workspace", "unassign", ch)
	if st := w.Stored(); len(st.Assignments) != 0 || st.Revision != before.Revision+3 {
		t.Fatalf("owner's unassign: %+v", st)
	}
	if r := w.As(clitest.SwOwnerSK, "workspace", "unassign", "00000000-0000-0000-0000-000000000000"); r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "nil UUID") {
		t.Fatalf("nil channel: exit %d %s", r.Code, r.Err)
	}
}
