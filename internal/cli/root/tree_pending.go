package root

import (
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/pending"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/internal/cli/repo/change"
	"github.com/roster-cli/roster/internal/cli/workspace"
	"github.com/spf13/cobra"
)

// newPendingTree is `roster pending`, given what resuming needs from the
// repository and workspace commands.
func newPendingTree(a *cmdutil.Factory) *cobra.Command {
	return pending.NewPendingCmd(a, pending.Deps{LoadRepoToWrite: repo.LoadRepoToWrite, ReloadRepo: repo.ReloadRepo,
		Lock: change.Lock, RetryImport: workspace.RetryImport})
}
