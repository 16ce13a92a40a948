package group

import (
	"context"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/spf13/cobra"
)

// ShowOptions are `roster group show` as its argument and flags gave it:
// the group reference parsed, and the relays it is asked on.
type ShowOptions struct {
	Factory   *cmdutil.Factory
	Ref       groups.Ref
	Relays    []string
	Me, Watch bool
}

// ListOptions are `roster group list` as its flags gave it.
type ListOptions struct {
	Factory *cmdutil.Factory
	Relays  []string
	Mine    bool
}

// MembersOptions are `roster group members` as its argument gave it.
type MembersOptions struct {
	Factory *cmdutil.Factory
	Ref     groups.Ref
	Relays  []string
}

// RequestOptions are `roster group join` and `leave` as their argument and
// flags gave them (the reference is parsed when the request runs).
type RequestOptions struct {
	Factory            *cmdutil.Factory
	Arg                string
	Leave              bool // leave, else join
	Code, Reason, From string
	Save, DryRun       bool
}

func (o groupRequestOpts) options(a *cmdutil.Factory, arg string, leave, dryRun bool) *RequestOptions {
	return &RequestOptions{Factory: a, Arg: arg, Leave: leave, Code: o.code, Reason: o.reason, From: o.from, Save: o.save, DryRun: dryRun}
}

// ModerateOptions are a moderation command (create, edit, add, remove,
// invite, delete-event, delete) as its arguments and flags gave it: the
// group as typed, the person for add and remove, and what it asks the
// relay to do.
type ModerateOptions struct {
	Factory     *cmdutil.Factory
	Arg         string
	Person      string
	Input       groups.ModerationInput
	DryRun, Yes bool
	Reason      string
}

// moderate runs runF with the parsed options when it is given (tests),
// else the moderation.
func moderate(cmd *cobra.Command, a *cmdutil.Factory, runF func(context.Context, *ModerateOptions) error, arg string, in groups.ModerationInput, o groupModOpts, person string) error {
	if runF != nil {
		return runF(cmd.Context(), &ModerateOptions{Factory: a, Arg: arg, Person: person, Input: in, DryRun: o.dryRun, Yes: o.yes, Reason: o.reason})
	}
	return groupModerate(cmd, a, arg, in, o, person)
}
