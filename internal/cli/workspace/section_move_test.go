package workspace_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

// `section move` sends NIP-SW's reorder (every active section, once) built
// from the current projection: the owner and a manager may; a mover, a
// viewer, a revoked reader and an outsider are refused before signing, and
// the relay's order stays as it was.
func TestWorkspaceSectionMoveSendsTheCompleteOrder(t *testing.T) {
	t.Parallel()
	w := rolesWorld(t)
	first := sectionstest.Load(t).Legacy(t).Name
	for _, l := range []string{"Beta", "Gamma", "Delta"} {
		w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", l)
	}
	labels := func(out report.WorkspaceChange) string {
		var ls []string
		for _, s := range out.Workspace.Sections {
			ls = append(ls, s.Label)
		}
		return strings.Join(ls, ",")
	}
	before := w.Stored()
	for _, c := range []struct {
		who  string
		sk   string
		exit int
		code string
	}{
		{"mover", clitest.SwMoverSK, cmdutil.ExitRefused, "role-refused"},
		{"viewer", clitest.SwViewerSK, cmdutil.ExitRefused, "role-refused"},
		{"revoked reader", clitest.SwForgerSK, cmdutil.ExitIncomplete, "no-projection"},
		{"outsider", clitest.SwOutsiderSK, cmdutil.ExitIncomplete, "no-projection"},
	} {
		r := w.As(c.sk, "workspace", "section", "move", "Delta", "--to", "1", "--owner", w.OwnerNpub(), "--json")
		if e := clitest.DecodeOut[clitest.ErrorOut](t, r); r.Code != c.exit || e.Error.Code != c.code {
			t.Errorf("%s: exit %d %s", c.who, r.Code, r.Out)
		}
	}
	if st := w.Stored(); st.Revision != before.Revision {
		t.Fatalf("a refused section move changed the relay's state (revision %d -> %d)", before.Revision, st.Revision)
	}

	out := clitest.DecodeOut[report.WorkspaceChange](t, w.MustAs(clitest.SwManagerSK, "workspace", "section", "move", "Delta", "--to", "1", "--owner", w.OwnerNpub(), "--json"))
	if got, want := labels(out), "Delta,"+first+",Beta,Gamma"; got != want || out.Command != "section move" || out.Revision != before.Revision+1 {
		t.Fatalf("--to 1: %s (revision %d), want %s", got, out.Revision, want)
	}
	st := w.Stored()
	if st.Sections[0].ID != out.Workspace.Sections[0].ID || st.LayoutRevision != before.LayoutRevision+1 {
		t.Fatalf("relay order %+v", st.Sections)
	}
	out = clitest.DecodeOut[report.WorkspaceChange](t, w.MustAs(clitest.SwOwnerSK, "workspace", "section", "move", first, "--after", "Gamma", "--json"))
	if got, want := labels(out), "Delta,Beta,Gamma,"+first; got != want {
		t.Fatalf("--after: %s, want %s", got, want)
	}
	out = clitest.DecodeOut[report.WorkspaceChange](t, w.MustAs(clitest.SwOwnerSK, "workspace", "section", "move", "Gamma", "--before", "Delta", "--json"))
	if got, want := labels(out), "Gamma,Delta,Beta,"+first; got != want {
		t.Fatalf("--before: %s, want %s", got, want)
	}
	rev := w.Stored().Revision
	for _, c := range []struct {
		args []string
		exit int
		want string
	}{
		{[]string{"Gamma", "--to", "1"}, cmdutil.ExitRefused, "already at position 1"},
		{[]string{"Gamma", "--to", "9"}, cmdutil.ExitUsage, "between 1 and 4"},
		{[]string{"Gamma", "--to", "0"}, cmdutil.ExitUsage, "count from 1"},
		{[]string{"Gamma"}, cmdutil.ExitUsage, "exactly one of"},
		{[]string{"Gamma", "--to", "2", "--before", "Beta"}, cmdutil.ExitUsage, "exactly one of"},
		{[]string{"Nope", "--to", "2"}, cmdutil.ExitUsage, "no section"},
	} {
		r := w.As(clitest.SwOwnerSK, append([]string{"workspace", "section", "move"}, c.args...)...)
		if r.Code != c.exit || !strings.Contains(r.Err, c.want) {
			t.Errorf("%v: exit %d %s", c.args, r.Code, r.Err)
		}
	}
	if w.Stored().Revision != rev {
		t.Fatal("a refused section move reached the relay")
	}
}
