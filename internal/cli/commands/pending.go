package commands

import (
	"context"

	"github.com/roster-cli/roster/discovery"
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
func newPending(a *cmdutil.Factory) *cobra.Command {
	query := func(a *cmdutil.Factory, ctx context.Context, reach ...string) (discovery.Query, func(), error) {
		return repo.WriteQuery(a, ctx, cmdutil.SourceOptions{}, reach...)
	}
	words := func(a *cmdutil.Factory, err error) error {
		_, err = repo.RepoViewErr(a, nil, err)
		return err
	}
	return pending.NewPendingCmd(a, pending.Deps{WriteQuery: query, ReadError: words,
		Lock: change.Lock, RetryImport: workspace.RetryImport,
		ResumeWorkspace: workspace.ResumeCommand, ResumeProject: project.ResumeProject})
}
