package repo

import (
	"context"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/report"
	"github.com/spf13/cobra"
)

// NewRepoCmd is `roster repo`: itself the read, and the parent of every
// repository subcommand.
func NewRepoCmd(a *cmdutil.Factory) *cobra.Command { return NewCmdRepo(a, nil) }

// RepoOptions are `roster repo` as its flags gave it: --full (which its
// subcommands inherit) and the shared flags, in Factory.Opts. --verbose is
// only on the writes whose previews it lengthens (render.AddVerboseFlag).
type RepoOptions struct {
	Factory *cmdutil.Factory
	Full    bool
}

// NewCmdRepo builds roster repo; runF, when given, runs instead of the read
// with the parsed options (tests).
func NewCmdRepo(a *cmdutil.Factory, runF func(context.Context, *RepoOptions) error) *cobra.Command {
	o := &RepoOptions{Factory: a}
	var watching bool
	cmd := &cobra.Command{
		Use:   "repo",
		Short: "Show who maintains the repository, who leads it, and what to do next",
		Long: `roster repo reads the repository this checkout points at (or --repo) from
its relays and answers, in order: which maintainer coordinate is selected;
who the lead is and whether that is explicit, legacy-inferred or unresolved;
who is confirmed, invited or a moderator; and whether any history
acknowledgement or lead coordinate is waiting for you. Then it shows the
announcement's metadata, the resolved Git state and what each relay said.

A read that only some relays answered still succeeds: it is marked
incomplete and names the relays that failed. Use 'roster repo health' in CI.

With --watch it stays: one live subscription per relay, and the answer is
printed again each time it changes (with --json, one document per line);
an event that changes nothing prints nothing. Ctrl-C ends it (exit 0).`,
		Example: `  roster repo
  roster repo --json
  roster repo --repo nostr://npub1.../my-repo --relay wss://relay.example
  roster repo --offline            # from the local cache, no network
  roster repo --watch --json       # one document per line, each time the answer changes`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Full = a.Full
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			if watching {
				return watchRepo(a, cmd.Context())
			}
			v, err := LoadRepoWith(a, cmd.Context(), cmdutil.SourceOptions{Profiles: true}, PartialEvidence)
			if err != nil {
				return err
			}
			rep := report.FromView(v)
			noticeUnfinished(a, v)
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, rep)
			}
			// Each pending action once: the commands the pending rows give
			// are left out of the health list and the advisories.
			given := pendingCommands(v)
			rep.Shown = commandLines(given)
			render.PasteFindings(rep.Health, render.Selectors(a))
			renderRepoHumanAs(a.Io.Out, rep, termui.NewStyles(a.Io.Out, a.Io.Color()), render.People(a, rep.Names, rep.Viewer), render.TerminalWidth(a))
			PrintAdvisories(a, v, given...)
			return nil
		},
	}
	cmd.Flags().BoolVar(&watching, "watch", false, cmdutil.WatchHelp)
	cmd.PersistentFlags().BoolVar(&a.Full, "full", false, "print npubs in full on a terminal too (pipes and --json always get them in full)")
	// Each read lives in its own file (repo_<name>.go); add one line here.
	// The writes are added by newRepoTree.
	cmd.AddCommand(NewCmdGraph(a, nil), NewCmdHistory(a, nil))
	cmdutil.AddFlags(cmd, &a.Opts, cmdutil.OutputFlags|cmdutil.RepoFlag|cmdutil.NetworkFlags|cmdutil.HomeFlag)
	return cmd
}
