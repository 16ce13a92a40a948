package cmdutil

import (
	"strings"

	"github.com/spf13/cobra"
)

// repoEnv is the environment variable that selects the repository as
// --repo does, for a shell or CI job working on one repository
// (roster help environment, docs/usage.md "Which repository?"). --repo
// wins over it; a command that reads no repository ignores it (it is not
// refused as a given --repo is: the environment is set for every command).
const repoEnv = "ROSTER_REPO"

// ApplyRepoEnv (run by the root before every command) sets --repo from ROSTER_REPO when cmd reads a repository and
// no --repo was given. An empty or blank value is unset.
func ApplyRepoEnv(a *Factory, cmd *cobra.Command) {
	if !Reads(cmd, "repo") {
		return
	}
	if f := cmd.Flags().Lookup("repo"); f != nil && f.Changed {
		return
	}
	if v := strings.TrimSpace(a.Io.Getenv(repoEnv)); v != "" {
		a.Opts.Repo, a.Opts.RepoFrom = v, repoEnv
	}
}
