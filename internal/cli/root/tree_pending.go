package root

import (
	"context"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/pending"
	"github.com/roster-cli/roster/internal/cli/project"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/internal/cli/repo/change"
	"github.com/roster-cli/roster/internal/cli/workspace"
	"github.com/spf13/cobra"
)

// newPendingTree is `roster pending`, given what resuming needs from the
// repository and workspace commands.
func newPendingTree(a *cmdutil.Factory) *cobra.Command {
	reload := func(a *cmdutil.Factory, ctx context.Context, prev *repo.RepoView, reach []string, also ...nostr.Filter) (*repo.RepoView, error) {
		return repo.ReloadRepo(a, ctx, cmdutil.SourceOptions{}, prev, reach, also...)
	}
	return pending.NewPendingCmd(a, pending.Deps{LoadRepoToWrite: repo.LoadRepoToWrite, ReloadRepo: reload,
		Lock: change.Lock, RetryImport: workspace.RetryImport,
		ResumeWorkspace: workspace.ResumeCommand, ResumeProject: project.ResumeProject})
}
