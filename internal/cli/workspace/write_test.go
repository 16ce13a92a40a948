package workspace_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/swrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// nip-sw.md: "The relay publishes a revisioned projection only to the
// owner and active grantees" — so a reader must be authenticated (NIP-42)
// before asking for it. A relay that does not refuse anonymous REQs (like
// `roster dev relay` without --require-auth) silently withholds the
// projection; roster must answer the challenge first, or the owner's own
// `workspace show` and `grant` right after a successful import say "no
// workspace projection" (exit 4).
func TestWorkspaceReadsAuthenticateOnARelayThatDoesNotRequireAuth(t *testing.T) {
	t.Parallel()
	r := devrelay.StartN(t, 1, devrelay.Options{SecretKey: clitest.SwRelaySK, Authorities: []devrelay.Authority{swrelay.New(swrelay.Options{})}})[0]
	w := &clitest.SwWorld{T: t, Relay: r, Homes: map[string]string{}}
	w.PublishLegacy()
	w.MustAs(clitest.SwOwnerSK, "workspace", "import")
	w.MustAs(clitest.SwOwnerSK, "workspace", "show")
	viewer := graph.Npub(clitest.PubOf(t, clitest.SwViewerSK))
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", viewer, "--role", "viewer")
	out := w.MustAs(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub())
	if !strings.Contains(out.Out, viewer) || !strings.Contains(out.Out, "viewer") {
		t.Fatalf("the viewer's show lacks their grant:\n%s", out.Out)
	}
}

// Rule (errors name the next command, for the person who runs it): with no
// projection yet, the owner is told to create the workspace — not to grant
// themselves a viewer role, nor to import what may not exist; somebody else
// is told which commands the owner runs, named.
func TestWorkspaceNoProjectionNamesWhoRunsWhat(t *testing.T) {
	t.Parallel()
	w := clitest.NewSWWorld(t)
	r := w.As(clitest.SwOwnerSK, "workspace", "show", "--json")
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if r.Code != cmdutil.ExitIncomplete || e.Error.Code != "no-projection" {
		t.Fatalf("owner: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	if len(e.Error.Commands) != 1 || !strings.HasPrefix(e.Error.Commands[0], "roster workspace create --relay "+w.Relay.URL()) {
		t.Errorf("owner's commands %q, want only the create", e.Error.Commands)
	}
	r = w.As(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub(), "--json")
	e = clitest.DecodeOut[clitest.ErrorOut](t, r)
	viewer := graph.Npub(clitest.PubOf(t, clitest.SwViewerSK))
	if r.Code != cmdutil.ExitIncomplete || len(e.Error.Commands) != 2 ||
		!strings.HasPrefix(e.Error.Commands[1], "roster workspace grant "+viewer+" --role viewer") ||
		!strings.HasPrefix(e.Error.Commands[0], "roster workspace create") || !strings.Contains(e.Error.Commands[0], "# run by "+w.OwnerNpub()) ||
		!strings.Contains(e.Error.Commands[1], "# run by "+w.OwnerNpub()+", to let you read") {
		t.Errorf("viewer: exit %d, commands %q", r.Code, e.Error.Commands)
	}
}

// Rule (errors name the next command): a write naming a section that does
// not exist (exit 2) or revoking somebody without a grant (exit 3) names
// `roster workspace show` for the same owner and relay, which lists what
// does exist; nothing is signed.
func TestWorkspaceWriteMisfitsNameTheShowCommand(t *testing.T) {
	t.Parallel()
	w := clitest.ImportedWorld(t)
	show := "roster workspace show --owner " + w.OwnerNpub() + " --relay " + w.Relay.URL() + "  #"
	for _, c := range []struct {
		args []string
		code int
		kind string
	}{
		{[]string{"workspace", "move", strings.Repeat("1", 8) + "-1111-4111-8111-111111111111", "--to", "Nope"}, cmdutil.ExitUsage, "usage"},
		{[]string{"workspace", "revoke", w.Npub(clitest.SwViewerSK)}, cmdutil.ExitRefused, "invalid-command"},
	} {
		r := w.As(clitest.SwOwnerSK, append(c.args, "--json")...)
		e := clitest.DecodeOut[clitest.ErrorOut](t, r)
		if r.Code != c.code || e.Error.Code != c.kind || len(e.Error.Commands) != 1 || !strings.HasPrefix(e.Error.Commands[0], show) {
			t.Errorf("%v: exit %d, error %+v", c.args, r.Code, e.Error)
		}
	}
	if rev := w.Stored().Revision; rev != 1 {
		t.Fatalf("revision %d after refused writes, want 1", rev)
	}
}
