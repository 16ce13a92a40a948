package main

import (
	"strings"
	"testing"

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
	r := devrelay.StartN(t, 1, devrelay.Options{SecretKey: swRelaySK, Authorities: []devrelay.Authority{swrelay.New(swrelay.Options{})}})[0]
	w := &swWorld{t: t, relay: r, homes: map[string]string{}}
	w.publishLegacy()
	w.mustAs(swOwnerSK, "workspace", "import")
	w.mustAs(swOwnerSK, "workspace", "show")
	viewer := graph.Npub(pubOf(t, swViewerSK))
	w.mustAs(swOwnerSK, "workspace", "grant", viewer, "--role", "viewer")
	out := w.mustAs(swViewerSK, "workspace", "show", "--owner", w.ownerNpub())
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
	w := newSWWorld(t)
	r := w.as(swOwnerSK, "workspace", "show", "--json")
	e := decodeOut[errorOut](t, r)
	if r.Code != cmdutil.ExitIncomplete || e.Error.Code != "no-projection" {
		t.Fatalf("owner: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	if len(e.Error.Commands) != 1 || !strings.HasPrefix(e.Error.Commands[0], "roster workspace create --relay "+w.relay.URL()) {
		t.Errorf("owner's commands %q, want only the create", e.Error.Commands)
	}
	r = w.as(swViewerSK, "workspace", "show", "--owner", w.ownerNpub(), "--json")
	e = decodeOut[errorOut](t, r)
	viewer := graph.Npub(pubOf(t, swViewerSK))
	if r.Code != cmdutil.ExitIncomplete || len(e.Error.Commands) != 2 ||
		!strings.HasPrefix(e.Error.Commands[1], "roster workspace grant "+viewer+" --role viewer") ||
		!strings.HasPrefix(e.Error.Commands[0], "roster workspace create") || !strings.Contains(e.Error.Commands[0], "# run by "+w.ownerNpub()) ||
		!strings.Contains(e.Error.Commands[1], "# run by "+w.ownerNpub()+", to let you read") {
		t.Errorf("viewer: exit %d, commands %q", r.Code, e.Error.Commands)
	}
}

// Rule (errors name the next command): a write naming a section that does
// not exist (exit 2) or revoking somebody without a grant (exit 3) names
// `roster workspace show` for the same owner and relay, which lists what
// does exist; nothing is signed.
func TestWorkspaceWriteMisfitsNameTheShowCommand(t *testing.T) {
	t.Parallel()
	w := importedWorld(t)
	show := "roster workspace show --owner " + w.ownerNpub() + " --relay " + w.relay.URL() + "  #"
	for _, c := range []struct {
		args []string
		code int
		kind string
	}{
		{[]string{"workspace", "move", strings.Repeat("1", 8) + "-1111-4111-8111-111111111111", "--to", "Nope"}, cmdutil.ExitUsage, "usage"},
		{[]string{"workspace", "revoke", w.npub(swViewerSK)}, cmdutil.ExitRefused, "invalid-command"},
	} {
		r := w.as(swOwnerSK, append(c.args, "--json")...)
		e := decodeOut[errorOut](t, r)
		if r.Code != c.code || e.Error.Code != c.kind || len(e.Error.Commands) != 1 || !strings.HasPrefix(e.Error.Commands[0], show) {
			t.Errorf("%v: exit %d, error %+v", c.args, r.Code, e.Error)
		}
	}
	if rev := w.stored().Revision; rev != 1 {
		t.Fatalf("revision %d after refused writes, want 1", rev)
	}
}
