package workspace_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/swrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/sections"
)

// stageOne is a relay that implements only NIP-SW Stage 1, where "clients
// expose viewer": it refuses a mover or manager grant.
type stageOne struct{ *swrelay.Authority }

func (s stageOne) Ingest(ctx context.Context, env devrelay.Env, authed string, evt *nostr.Event) ([]*nostr.Event, error) {
	if cmd, err := sections.ParseCommand(evt); err == nil {
		if g, ok := cmd.Body.(*sections.Grant); ok && g.Role != sections.RoleViewer {
			return nil, fmt.Errorf("restricted: this relay implements Stage 1 only; grant viewer")
		}
	}
	return s.Authority.Ingest(ctx, env, authed, evt)
}

// roster offers the frozen role vocabulary (NIP-SW: viewer|mover|manager);
// a Stage 1 relay's refusal of a later-stage role is relay-rejected, exit 3,
// and the viewer grant still works there.
func TestWorkspaceStageOneRelayRefusesMoverGrant(t *testing.T) {
	t.Parallel()
	w := clitest.NewSWWorldWith(t, stageOne{swrelay.New(swrelay.Options{})})
	w.PublishLegacy()
	w.MustAs(clitest.SwOwnerSK, "workspace", "import")
	r := w.As(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwMoverSK), "--role", "mover", "--json")
	if e := clitest.DecodeOut[clitest.ErrorOut](t, r); r.Code != cmdutil.ExitRefused || e.Error.Code != "relay-rejected" {
		t.Fatalf("mover grant on a Stage 1 relay: exit %d %s", r.Code, r.Out)
	}
	if got := w.Stored(); got.Revision != 1 {
		t.Fatalf("a refused grant changed the workspace: revision %d", got.Revision)
	}
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwViewerSK))
	v := clitest.DecodeOut[report.Workspace](t, w.MustAs(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub(), "--json"))
	if v.You.Role != "viewer" {
		t.Fatalf("the default grant role is %q, want viewer", v.You.Role)
	}
}
