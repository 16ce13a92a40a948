// Package tree assembles roster repo: the repo package builds the command
// and its graph and history reads; health, state, check-event and the
// membership changes live in packages of their own that import repo, and
// are added to it here.
package tree

import (
	"reflect"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/internal/cli/repo/change"
	"github.com/roster-cli/roster/internal/cli/repo/checkevent"
	"github.com/roster-cli/roster/internal/cli/repo/health"
	"github.com/roster-cli/roster/internal/cli/repo/state"
	"github.com/roster-cli/roster/report"
	"github.com/spf13/cobra"
)

// New is roster repo with its subcommands.
func New(a *cmdutil.Factory) *cobra.Command {
	cmd := repo.NewRepoCmd(a)
	cmd.AddCommand(
		health.NewRepoHealthCmd(a),
		state.NewRepoStateCmd(a),
		checkevent.NewRepoCheckEventCmd(a),
		change.NewRepoInitCmd(a),
		change.NewRepoEditCmd(a), change.NewRepoAcceptCmd(a), change.NewRepoLeaveCmd(a), change.NewRepoFollowLeadCmd(a),
		change.NewRepoRepairCmd(a),
	)
	addRepoFlags(a, cmd)
	return cmd
}

// addRepoFlags gives every command under roster repo the flags a
// repository command reads: --repo, the relay flags, --home and the
// output flags. check-event takes --offline to refuse it with its reason
// (a verdict needs every relay's answer).
func addRepoFlags(a *cmdutil.Factory, parent *cobra.Command) {
	for _, c := range parent.Commands() {
		cmdutil.AddFlags(c, &a.Opts, cmdutil.RepoCommandFlags)
		if c.Name() == "check-event" {
			c.Flags().Lookup("offline").Usage = "refused: a verdict needs every relay's answer, never the local cache alone"
		}
		addRepoFlags(a, c)
	}
}

// JSONDocs are the JSON objects of the repo commands whose top-level
// fields `--json a,b` selects, by command path below the root.
var JSONDocs = map[string]reflect.Type{
	"repo":         reflect.TypeOf(report.Repo{}),
	"repo health":  reflect.TypeOf(report.Health{}),
	"repo graph":   reflect.TypeOf(report.Graph{}),
	"repo history": reflect.TypeOf(report.History{}),
}
