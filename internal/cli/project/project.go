// Command wiring of `roster project`: flags, arguments and the choice of
// read path; reading, checking and changing live in workspace/projects.

package project

import (
	"context"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr/nip19"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/projects"
	"github.com/spf13/cobra"
)

func NewProjectCmd(a *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "project",
		Short: "NIP-PC projects: create, show, list, health, update, relate channels and delete",
		Long: `A project's identity (kind 30621) is signed by its owner; its effective state
(kind 30623) is signed by the relay that hosts its community, which also
applies related-channel changes (kind 47010). The project owner may always
change related channels; anyone else only as an active owner or admin of the
project's live home channel (a NIP-29 group on the same relay).`,
		Example: `  roster project show 30621:<owner-npub>:my-project --relay wss://relay.example
  roster project relate 30621:<owner-npub>:my-project 11111111-1111-4111-8111-111111111111 --relay wss://relay.example
  roster project unrelate 30621:<owner-npub>:my-project 11111111-1111-4111-8111-111111111111 --relay wss://relay.example --json
  roster project update my-project --add-repo nostr://<npub>/<repo> --relay wss://relay.example
  roster project delete my-project --dry-run --relay wss://relay.example
  roster project health 30621:<owner-npub>:my-project --strict --relay wss://relay.example`,
	}
	cmd.AddCommand(NewCmdShow(a, nil), NewCmdHealth(a, nil), NewCmdRelate(a, nil), NewCmdUnrelate(a, nil),
		NewCmdCreate(a, nil), NewCmdUpdate(a, nil), NewCmdDelete(a, nil), NewCmdList(a, nil))
	// Every command of it reads relays and prints JSON.
	cmdutil.AddLeafFlags(cmd, &a.Opts, cmdutil.OutputFlags|cmdutil.NetworkFlags|cmdutil.HomeFlag)
	render.AddFullFlag(cmd, a)
	return cmd
}

// NewCmdShow builds `roster project show`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdShow(a *cmdutil.Factory, runF func(context.Context, *ShowOptions) error) *cobra.Command {
	o := &ShowOptions{Factory: a}
	var watching bool
	cmd := &cobra.Command{
		Use:   "show <naddr|coordinate>",
		Short: "Show a project's relay-signed state",
		Long: `Reads the kind 30623 Project State for one project from every relay and keeps
only projections signed by the relay's own NIP-11 "self" key, with the
requested coordinate in their "a" tag. The newest valid projection is shown;
its revision is the "rev" tag. Exit 4 when no relay has a valid projection.

Then the member repositories (its "a" tags), all in one discovery (each
round one request per relay for all of them; at most 16 are read): each
one's lead, confirmed maintainers and health verdict, as 'roster repo'
reads them. 'roster project health' is the CI gate.

With --watch it stays: one live subscription per relay on the Project State,
and the project is printed again each time the shown state changes (with
--json, one document per line). Ctrl-C ends it (exit 0).`,
		Example: `  roster project show 30621:<owner-npub>:my-project --relay wss://relay.example
  roster project show naddr1... --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, hints, err := ProjectParseArg(args[0])
			if err != nil {
				return err
			}
			if runF != nil {
				o.Arg, o.Coordinate, o.Hints, o.Watch = args[0], c, hints, watching
				return runF(cmd.Context(), o)
			}
			relays := a.DefaultRelays()
			if len(relays) == 0 {
				relays = hints
			}
			if len(relays) == 0 {
				return projectNoRelays(c)
			}
			_ = noticeUnfinished(a, a.Journal(), c) // a read: an unreadable journal stops writes only
			if watching {
				return watchProject(cmd.Context(), a, args[0], c, relays)
			}
			var rd projects.ReadResult
			if a.Opts.Offline {
				if rd, err = projectReadCached(a, relays, c); err != nil {
					return err
				}
			} else {
				pool := a.Pool(cmdutil.AuthLazy)
				defer pool.Close()
				rd = projects.Read(cmd.Context(), pool, relays, c)
				projectCachePut(a, rd)
			}
			staleReason := ""
			if a.Opts.Offline {
				staleReason = "--offline: the cached state was not compared with any relay"
			} else {
				var stale bool
				if rd, staleReason, stale = projectOutageFallback(a, c, rd); stale && staleReason == "" {
					staleReason = "the relays did not answer"
				}
			}
			if rd.Best == nil {
				return projectNotFound(a, args[0], c, rd)
			}
			out := projectView(c, rd)
			out.Stale, out.StaleReason = staleReason != "", staleReason
			var members []projects.Member
			if !rd.Best.Deleted {
				members = rd.Best.Document.Members
			}
			repos, err := projectRepositories(cmd.Context(), a, relays, members, discovery.Partial, true, false, false)
			if err != nil {
				return err
			}
			out.Schema, out.Repositories = projectShowSchema, &repos
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, out)
			}
			projectRender(a, out)
			return nil
		},
	}
	cmd.Flags().BoolVar(&watching, "watch", false, cmdutil.WatchHelp)
	return cmd
}

// ProjectParseArg accepts a coordinate 30621:<owner-hex>:<d> or an naddr of
// kind 30621 (whose relay hints are returned). The naddr is read by
// gitstate.DecodeAddress, not nip19.Decode, which panics on hostile input.
func ProjectParseArg(s string) (projects.Coordinate, []string, error) {
	if strings.HasPrefix(s, "naddr1") {
		addr, hints, err := gitstate.DecodeAddress(s)
		if err != nil || addr.Kind == 0 || addr.Identifier == "" {
			return projects.Coordinate{}, nil, cmdutil.UsageErr("%q is not a valid naddr", s)
		}
		if addr.Kind != projects.KindIdentity {
			return projects.Coordinate{}, nil, cmdutil.UsageErr("naddr points at a kind %d event, not a kind 30621 project", addr.Kind)
		}
		c := projects.Coordinate{Owner: addr.Pubkey, D: addr.Identifier}
		if err := c.Validate(); err != nil {
			return projects.Coordinate{}, nil, cmdutil.UsageErr("%v", err)
		}
		return c, hints, nil
	}
	c, err := projects.ParseCoordinate(ownerAsHex(s))
	if err != nil {
		return projects.Coordinate{}, nil, cmdutil.UsageErr("%v (pass 30621:<owner npub or 64 lowercase hex>:<d> or an naddr)", err)
	}
	return c, nil, nil
}

// ownerAsHex is s with an npub owner (30621:npub1…:d, what people have)
// written as the hex the coordinate carries; anything else unchanged.
func ownerAsHex(s string) string {
	kind, rest, ok := strings.Cut(s, ":")
	owner, d, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 || !strings.HasPrefix(owner, "npub1") {
		return s
	}
	prefix, v, err := nip19.Decode(owner)
	if err != nil || prefix != "npub" {
		return s
	}
	return kind + ":" + v.(string) + ":" + d
}

func newProjectChangeCmd(a *cmdutil.Factory, relate bool, runF func(context.Context, *ChangeOptions) error) *cobra.Command {
	o := &ChangeOptions{Factory: a, Relate: relate}
	use, short, verb := "relate", "Relate channels to a project (kind 47010)", "relate"
	if !relate {
		use, short, verb = "unrelate", "Unrelate channels from a project (kind 47010)", "unrelate"
	}
	return &cobra.Command{
		Use:   use + " <coordinate|naddr> <channel-uuid>...",
		Short: short,
		Long: `Signs and submits one kind 47010 change against the project's current revision
on exactly one relay (the community that hosts it). Before signing, roster
re-checks what the relay will: the project is live, the channels are not the
home channel, are not already related (relate) or are related (unrelate), at
most 64 related channels remain, and you are the owner or an active owner or
admin of the project's live home channel. A refusal exits 3 and publishes
nothing. If another change commits first (a "conflict:" reply), roster
re-reads the state, re-checks and retries once.`,
		Example: fmt.Sprintf(`  roster project %[1]s 30621:<owner-npub>:my-project 11111111-1111-4111-8111-111111111111 --relay wss://relay.example
  roster project %[1]s naddr1... <uuid> <uuid> --relay wss://relay.example --json`, verb),
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, _, err := ProjectParseArg(args[0])
			if err != nil {
				return err
			}
			var chans []string
			for _, s := range args[1:] {
				u, err := projects.NormalizeUUID(s)
				if err != nil {
					return cmdutil.UsageErr("%v", err)
				}
				chans = append(chans, u)
			}
			var patch projects.Patch
			if relate {
				patch, err = projects.NewPatch(chans, nil)
			} else {
				patch, err = projects.NewPatch(nil, chans)
			}
			if err != nil {
				return cmdutil.UsageErr("%v", err)
			}
			if runF != nil {
				o.Arg, o.Coordinate, o.Channels, o.Patch = args[0], c, chans, patch
				return runF(cmd.Context(), o)
			}
			relays := relaypool.NormalizeRelays(a.DefaultRelays())
			if len(relays) == 0 {
				relays = naddrRelay(args[0])
			}
			if len(relays) != 1 {
				return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "one-relay",
					Err:      fmt.Errorf("a project change is committed by the one relay that hosts the project's community; pass exactly one --relay (got %d)", len(relays)),
					Commands: []suggest.Command{suggest.Roster(append([]string{"project", verb, c.String()}, chans...)...).With("--relay", "wss://<relay hosting the project>")}}
			}
			if a.Opts.Offline {
				return cmdutil.UsageErr("a project change needs the relay; drop --offline")
			}
			s, err := a.Signer(cmd.Context())
			if err != nil {
				return err
			}
			return projectChange(cmd.Context(), a, s, relays[0], c, patch, verb)
		},
	}
}
