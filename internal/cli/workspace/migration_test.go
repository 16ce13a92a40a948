package workspace_test

import (
	"context"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/swrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/strictjson"
)

// markerSwap is a relay that accepts the import but projects a migration
// marker for another source: a relay bug, or a relay that imported something
// else. It wraps the reference authority and re-signs its projections.
type markerSwap struct{ *swrelay.Authority }

func (m markerSwap) Ingest(ctx context.Context, env devrelay.Env, authed string, evt *nostr.Event) ([]*nostr.Event, error) {
	out, err := m.Authority.Ingest(ctx, env, authed, evt)
	for _, e := range out {
		var p sections.Projection
		if e.Kind != sections.KindProjection || strictjson.DecodeStrict([]byte(e.Content), &p) != nil || p.Migration == nil {
			continue
		}
		p.Migration.SourceHash = strictjson.SHA256Hex([]byte("another legacy blob"))
		content, cerr := strictjson.Canonical(&p)
		if cerr != nil {
			return nil, cerr
		}
		e.Content = string(content)
		if serr := env.Sign(e); serr != nil {
			return nil, serr
		}
	}
	return out, err
}

// nip-sw.md "Migration and cutover": the client "switches authority only after
// reading back the matching migration marker and projection". A relay that
// accepts the import but shows another source's marker leaves roster
// unswitched (exit 6), and roster still writes no legacy blob.
func TestWorkspaceImportSwitchesOnlyOnMatchingMarker(t *testing.T) {
	t.Parallel()
	w := clitest.NewSWWorldWith(t, markerSwap{swrelay.New(swrelay.Options{})})
	w.PublishLegacy()
	r := w.As(clitest.SwOwnerSK, "workspace", "import", "--json")
	if r.Code != cmdutil.ExitUnverified {
		t.Fatalf("import against a mismatched marker: exit %d\nout: %s\nerr: %s", r.Code, r.Out, r.Err)
	}
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if e.Error.Code != "unverified" || !strings.Contains(e.Error.Message, "has not switched") || strings.Contains(r.Out, `"switched":true`) {
		t.Fatalf("error %+v", e.Error)
	}
	if n := len(w.Relay.Stored(nostr.Filter{Kinds: []int{sections.KindLegacy}})); n != 1 {
		t.Fatalf("relay stores %d legacy blobs; roster must never write one", n)
	}
}
