package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/swrelay"
	"github.com/roster-cli/roster/graph"
)

// nip-sw.md: "The relay publishes a revisioned projection only to the
// owner and active grantees" — so a reader must be authenticated (NIP-42)
// before asking for it. A relay that does not refuse anonymous REQs (like
// `roster dev relay` without --require-auth) silently withholds the
// projection; roster must answer the challenge first, or the owner's own
// `workspace show` and `grant` right after a successful import say "no
// workspace projection" (exit 4).
func TestWorkspaceReadsAuthenticateOnARelayThatDoesNotRequireAuth(t *testing.T) {
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
