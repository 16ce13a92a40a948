package workspace

import (
	"context"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/workspace/sections"
)

// RetryImport is `roster workspace import` on a.Opts.Relays: it finds the
// import kept from an earlier attempt and sends that exact event again
// (NIP-SW's exact retry) until its marker reads back, for `roster pending
// resume`.
func RetryImport(a *cmdutil.Factory, ctx context.Context) error {
	return workspaceMigrate(a, ctx, "import", "roster.workspace.import/v1", "imported legacy channel-sections event",
		func(ctx context.Context, ws *wsSession) (*sections.ImportResult, error) { return ws.Import(ctx) })
}
