package cmdutil

import (
	"context"

	"github.com/roster-cli/roster/gitstate"
)

// CheckAvailability is the object check of writes, bounded by the
// command's time budget: every Git server is asked in parallel within one
// --timeout (docs/membership.md, "Object availability").
func (a *Factory) CheckAvailability(ctx context.Context, servers []gitstate.Server, oids map[string]string) gitstate.Availability {
	ctx, cancel := context.WithTimeout(ctx, a.Opts.Timeout)
	defer cancel()
	return gitstate.CheckAvailability(ctx, servers, oids)
}
