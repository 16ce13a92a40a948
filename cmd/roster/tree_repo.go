package main

import (
	"github.com/spf13/cobra"
)

// newRepoTree is roster repo with its subcommands: the repo package builds
// the command and its graph and history reads; health, state, check-event
// and the membership changes live in packages of their own that import
// repo, and are added here.
func newRepoTree(a *app) *cobra.Command {
	cmd := newRepoCmd(a)
	cmd.AddCommand(
		newRepoHealthCmd(a),
		newRepoStateCmd(a),
		newRepoCheckEventCmd(a),
		newRepoInitCmd(a),
		newRepoEditCmd(a), newRepoAcceptCmd(a), newRepoLeaveCmd(a), newRepoFollowLeadCmd(a),
	)
	return cmd
}
