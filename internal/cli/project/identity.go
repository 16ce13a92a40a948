// `roster project create|update|delete`: the owner's kind 30621 identity,
// one call to projects.Create, Update or Delete, rendered.

package project

import (
	"context"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/projects"
	"github.com/spf13/cobra"
)

type projectFieldFlags struct {
	name, description, home string
	repos                   projectRepoFlags
}

func (f *projectFieldFlags) register(cmd *cobra.Command, create bool) {
	cmd.Flags().StringVar(&f.name, "name", "", "the project's display name (NIP-MP name tag)")
	cmd.Flags().StringVar(&f.description, "description", "", "a one-line description")
	homeHelp := `the home channel: a NIP-29 group id (UUID) on the same relay, whose owners and admins may change related channels`
	if !create {
		homeHelp += `; --home-channel "" removes it`
	}
	// Not --home: that is roster's home directory, which these commands
	// take like every other.
	cmd.Flags().StringVar(&f.home, "home-channel", "", homeHelp)
	f.repos.register(cmd, !create)
}

// withRepos adds the member-repository edit of the flags to out.
func (f *projectFieldFlags) withRepos(ctx context.Context, a *cmdutil.Factory, out *projects.Fields) error {
	e, err := f.repos.edit(ctx, a)
	if err != nil {
		return err
	}
	out.Repos = e
	return nil
}

// check sets in's CheckRepos: the repositories an edit adds must resolve,
// unless --force-unresolved.
func (f *projectFieldFlags) check(a *cmdutil.Factory, verb string, in *projects.IdentityInput) {
	if !f.repos.force {
		in.CheckRepos = projectRepoCheck(a, verb, in.Relay, in.Coord)
	}
}

// fields turns the flags the user set into projects.Fields.
func (f *projectFieldFlags) fields(cmd *cobra.Command) (projects.Fields, error) {
	var out projects.Fields
	if cmd.Flags().Changed("name") {
		out.Name = &f.name
	}
	if cmd.Flags().Changed("description") {
		out.Description = &f.description
	}
	if cmd.Flags().Changed("home-channel") {
		h := f.home
		if h != "" {
			u, err := projects.NormalizeUUID(h)
			if err != nil {
				return out, cmdutil.UsageErr("--home-channel: %v", err)
			}
			h = u
		}
		out.Home = &h
	}
	return out, nil
}

// NewCmdCreate builds `roster project create`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdCreate(a *cmdutil.Factory, runF func(context.Context, *IdentityOptions) error) *cobra.Command {
	o := &IdentityOptions{Factory: a}
	var f projectFieldFlags
	var pf projectPreviewFlags
	cmd := &cobra.Command{
		Use:   "create <d> --name <name> [--home-channel <channel-uuid>] [--add-repo <repo>]...",
		Short: "Create your project: publish its owner-signed kind 30621 identity",
		Long: `Publishes the first kind 30621 identity of the project 30621:<you>:<d> to the one
relay that hosts its community; the relay materializes it at revision 1 and
signs its Project State (kind 30623), which roster reads back. roster writes
the tags d, name, description and buzz-channel (the home channel), in that
order (docs/projects.md), then one "a" tag per --add-repo (a member
repository: an naddr, a nostr:// URL or 30617:<hex>:<d>; one that no relay
holds an announcement of is refused unless --force-unresolved). A live
project at that coordinate is refused (exit 3, project-exists: use update);
a deleted one is recreated at the next revision.`,
		Example: `  roster project create my-project --name "My project" --relay wss://relay.example
  roster project create my-project --name "My project" --home-channel 99999999-9999-4999-8999-999999999999 --relay wss://relay.example --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl, err := f.fields(cmd)
			if err != nil {
				return err
			}
			if fl.Name == nil || *fl.Name == "" {
				return cmdutil.UsageErr("project create needs --name")
			}
			if runF != nil {
				o.set(args[0], fl, &f, pf)
				return runF(cmd.Context(), o)
			}
			if err := f.withRepos(cmd.Context(), a, &fl); err != nil {
				return err
			}
			var pre []identityPreStep
			if fl.Home != nil && *fl.Home != "" {
				pre = append(pre, createStep(a, *fl.Home, pf.yes, retryWithYes(cmd, args)))
			}
			return projectIdentityWrite(cmd.Context(), a, "create", args[0], asTyped(cmd, args), true, func(ctx context.Context, in projects.IdentityInput) (*projects.IdentityResult, error) {
				f.check(a, "create", &in)
				return projects.Create(ctx, in, fl)
			}, pre...)
		},
	}
	f.register(cmd, true)
	cmd.Flags().BoolVar(&pf.yes, "yes", false, "bind the project to a home channel you are not a member of without asking (needed off a terminal)")
	return cmd
}

// NewCmdUpdate builds `roster project update`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdUpdate(a *cmdutil.Factory, runF func(context.Context, *IdentityOptions) error) *cobra.Command {
	o := &IdentityOptions{Factory: a}
	var f projectFieldFlags
	var pf projectPreviewFlags
	cmd := &cobra.Command{
		Use:   "update <naddr|coordinate|d> [--name ...] [--description ...] [--home-channel ...] [--add-repo|--remove-repo <repo>]...",
		Short: "Update your project: publish a newer kind 30621, every other tag kept",
		Long: `Reads the relay's Project State and the owner's latest identity (the one it
names, or a newer one of the owner at the same address), replaces the fields
you set (in place; --home-channel "" removes the home channel), adds and removes
member repositories ("a" tags: --add-repo appends, --remove-repo drops every
tag naming it; an added one must resolve unless --force-unresolved), keeps
every other tag byte for byte and in order, dates it after the current
identity and publishes it. The relay keeps the collaboratively related
channels; they are never copied into the identity. Owner only: anyone else
is refused before signing (exit 3, not-owner).`,
		Example: `  roster project update my-project --name "New name" --relay wss://relay.example
  roster project update naddr1... --home-channel "" --relay wss://relay.example --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl, err := f.fields(cmd)
			if err != nil {
				return err
			}
			if runF != nil {
				o.set(args[0], fl, &f, pf)
				return runF(cmd.Context(), o)
			}
			if err := f.withRepos(cmd.Context(), a, &fl); err != nil {
				return err
			}
			if fl.Empty() {
				return cmdutil.UsageErr("project update needs at least one of --name, --description, --home-channel, --add-repo, --remove-repo")
			}
			var pre []identityPreStep
			if pf.dryRun || fl.Home != nil {
				pre = append(pre, updateStep(a, pf, fl, retryWithYes(cmd, args)))
			}
			return projectIdentityWrite(cmd.Context(), a, "update", args[0], asTyped(cmd, args), false, func(ctx context.Context, in projects.IdentityInput) (*projects.IdentityResult, error) {
				f.check(a, "update", &in)
				return projects.Update(ctx, in, fl)
			}, pre...)
		},
	}
	f.register(cmd, false)
	pf.register(cmd, "say what the update changes, and with --home-channel who gains and who loses authority over the related channels; sign and publish nothing", true)
	return cmd
}

// NewCmdDelete builds `roster project delete`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdDelete(a *cmdutil.Factory, runF func(context.Context, *IdentityOptions) error) *cobra.Command {
	o := &IdentityOptions{Factory: a}
	var pf projectPreviewFlags
	cmd := &cobra.Command{
		Use:   "delete <naddr|coordinate|d>",
		Short: "Delete your project: a NIP-09 deletion of its kind 30621 identity",
		Long: `Publishes a kind 5 deletion naming the identity by address and by id; the relay
turns the project into a tombstone at the next revision, which roster reads
back. Member repositories and channels are not deleted. A later
` + "`project create`" + ` recreates the project. Owner only.`,
		Example: `  roster project delete my-project --relay wss://relay.example
  roster project delete naddr1... --relay wss://relay.example --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				o.set(args[0], projects.Fields{}, nil, pf)
				return runF(cmd.Context(), o)
			}
			return projectIdentityWrite(cmd.Context(), a, "delete", args[0], asTyped(cmd, args), false, func(ctx context.Context, in projects.IdentityInput) (*projects.IdentityResult, error) {
				return projects.Delete(ctx, in)
			}, deleteStep(a, pf))
		},
	}
	pf.register(cmd, "say what the deletion removes; sign and publish nothing", false)
	return cmd
}

// projectIdentityWrite resolves the project (a bare d is yours), opens the
// signer and one relay, runs write and renders its result. typed is the
// command as typed (asTyped), which the one-relay refusal offers again
// with the relay to name.
func projectIdentityWrite(ctx context.Context, a *cmdutil.Factory, verb, arg string, typed suggest.Command, bareOnly bool,
	write func(context.Context, projects.IdentityInput) (*projects.IdentityResult, error), pre ...identityPreStep) error {
	relays := relaypool.NormalizeRelays(a.DefaultRelays())
	if len(relays) == 0 && !bareOnly {
		relays = naddrRelay(arg)
	}
	if len(relays) != 1 {
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "one-relay",
			Err:      fmt.Errorf("a project's identity is materialized by the one relay that hosts its community; pass exactly one --relay, or an naddr with its relay hint (got %d)", len(relays)),
			Commands: []suggest.Command{typed.With("--relay", "wss://<relay hosting the project>")}}
	}
	if a.Opts.Offline {
		return cmdutil.UsageErr("`project %s` publishes to the relay; drop --offline", verb)
	}
	s, me, err := a.SignerAndPubkey(ctx)
	if err != nil {
		return err
	}
	var c projects.Coordinate
	if bareOnly {
		c = projects.Coordinate{Owner: me, D: arg}
		if err := c.Validate(); err != nil {
			return cmdutil.UsageErr("%v", err)
		}
	} else if c, err = projectOwnArg(arg, me); err != nil {
		return err
	}
	pool := a.Pool(cmdutil.AuthLazy)
	defer pool.Close()
	j := a.Journal()
	if err := noticeUnfinished(a, j, c); err != nil {
		return err
	}
	in := projects.IdentityInput{Relays: pool, Publish: pipeline.PoolPublish(pool), Sign: s.SignEvent,
		Signer: me, Relay: relays[0], Coord: c, Now: func() nostr.Timestamp { return cmdutil.NostrNow(a) },
		Journal: j, Rerun: a.RerunWords()}
	for _, step := range pre {
		if stop, err := step(ctx, in); stop || err != nil {
			return err
		}
	}
	res, err := write(ctx, in)
	if err != nil {
		return render.PipelineErr(err)
	}
	projectCachePut(a, res.After)
	out := report.ProjectIdentity{Schema: "roster.project.identity/v1", Command: verb, Coordinate: c.String(),
		Naddr: projectNaddr(c, relays[0]), Relay: relays[0], Owner: c.Owner, OwnerNpub: gitstate.EncodeNpub(c.Owner),
		EventID: res.Event.ID, Kind: res.Event.Kind, Revision: res.After.Best.Revision, Project: projectView(c, res.After)}
	if res.Before != nil {
		out.RevisionBefore = res.Before.Revision
	}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	fmt.Fprintf(a.Io.Out, "project %s: %sd, revision %d -> %d (event %s)\n  naddr: %s\n", termtext.Line(c.String()), verb,
		out.RevisionBefore, out.Revision, res.Event.ID, out.Naddr)
	projectRender(a, out.Project)
	return nil
}

// projectOwnArg reads a project named by naddr, coordinate, or a bare d
// (the signer's own project).
func projectOwnArg(arg, me string) (projects.Coordinate, error) {
	if c, _, err := ProjectParseArg(arg); err == nil {
		return c, nil
	} else if len(arg) > 6 && (arg[:6] == "naddr1" || arg[:6] == "30621:") {
		return c, err
	}
	c := projects.Coordinate{Owner: me, D: arg}
	if err := c.Validate(); err != nil {
		return c, cmdutil.UsageErr("%v", err)
	}
	return c, nil
}

// projectNaddr is the project's kind 30621 naddr with relay as its hint.
func projectNaddr(c projects.Coordinate, relay string) string {
	var hints []string
	if relay != "" {
		hints = []string{relay}
	}
	n, _ := nip19.EncodeEntity(c.Owner, projects.KindIdentity, c.D, hints)
	return n
}

// naddrRelay is the first relay hint of a project naddr (the relay roster
// printed it for), as the one relay a write uses when none is given; nil
// for any other argument or an naddr without hints.
func naddrRelay(arg string) []string {
	if len(arg) <= 6 || arg[:6] != "naddr1" {
		return nil
	}
	_, hints, err := ProjectParseArg(arg)
	if err != nil || len(hints) == 0 {
		return nil
	}
	return relaypool.NormalizeRelays(hints[:1])
}
