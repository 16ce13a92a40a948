package change

import (
	"context"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Lock is the membership change's lock on a coordinate (changeLock), for
// `roster pending resume`, which finishes a change under the same lock.
func Lock(a *cmdutil.Factory, ctx context.Context, address string) (func(), error) {
	return changeLock(a, ctx, address)
}
