package main

import (
	"github.com/spf13/cobra"
)

// newRepoTree is roster repo with its subcommands: the repo package builds
// the command and its graph and history reads; health, state, check-event
// and the membership changes live in packages of their own that import
// repo, and are added here.
func newRepoTree(a *Factory) *cobra.Command {
	cmd := NewRepoCmd(a)
	cmd.AddCommand(
		NewRepoHealthCmd(a),
		NewRepoStateCmd(a),
		NewRepoCheckEventCmd(a),
		NewRepoInitCmd(a),
		NewRepoEditCmd(a), NewRepoAcceptCmd(a), NewRepoLeaveCmd(a), NewRepoFollowLeadCmd(a),
	)
	return cmd
}
