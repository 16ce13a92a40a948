// `roster project list`: one call to projects.List, rendered.

package project

import (
	"context"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/projects"
	"github.com/spf13/cobra"
)

// NewCmdList builds `roster project list`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdList(a *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return newProjectListCmd(a, runF)
}

func newProjectListCmd(a *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	o := &ListOptions{Factory: a}
	var owner string
	cmd := &cobra.Command{
		Use:   "list [--owner npub]",
		Short: "List your projects and those whose home channel you administer",
		Long: `Without --owner (needs a signer): your projects (your kind 30621 identities on
each relay) and the projects whose home channel you are an owner or admin of
(the relay-signed 39001 naming you, matched against the relay's signed
Project States; at most 500 states are asked per relay, and a relay that
returns that many is listed under "truncated"). With --owner: that owner's
projects. Each printed naddr carries the relay as its hint.`,
		Example: `  roster project list --relay wss://relay.example
  roster project list --owner npub1... --relay wss://relay.example --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			relays := relaypool.NormalizeRelays(a.DefaultRelays())
			if len(relays) == 0 {
				return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "no-relays",
					Err:      fmt.Errorf("no relay to ask for projects: pass --relay or set ROSTER_RELAYS"),
					Commands: []suggest.Command{suggest.Roster("project", "list").With("--relay", "wss://<relay>")}}
			}
			if a.Opts.Offline {
				return cmdutil.UsageErr("`project list` asks the relays; drop --offline")
			}
			if runF != nil {
				o.Owner = owner
				return runF(ctx, o)
			}
			var ownerHex, adminHex string
			var lookups cmdutil.Lookups
			if owner != "" {
				arg, l, err := a.ResolvePubkeyArg(ctx, "--owner", owner, false, suggest.Roster("project", "list", "--owner", "<npub>"))
				if err != nil {
					return err
				}
				pk, err := gitstate.DecodePubkey(arg)
				if err != nil {
					return cmdutil.UsageErr("--owner: %v", err)
				}
				ownerHex, lookups = pk, l
				a.PrintLookups(lookups)
			} else {
				_, me, err := a.SignerAndPubkey(ctx)
				if err != nil {
					return err
				}
				ownerHex, adminHex = me, me
			}
			pool := a.Pool(cmdutil.AuthLazy)
			defer pool.Close()
			res := projects.List(ctx, pool, relays, ownerHex, adminHex)
			out := report.ProjectList{Schema: "roster.project.list/v2", Projects: []report.ProjectListed{}, Relays: res.Relays,
				Complete: res.Complete, Truncated: cmdutil.OrEmptySlice(res.Truncated), NIP05Lookups: lookups.JSON()}
			if ownerHex != "" {
				n := gitstate.EncodeNpub(ownerHex)
				out.Owner = &n
			}
			if adminHex != "" {
				n := gitstate.EncodeNpub(adminHex)
				out.Admin = &n
			}
			answered := 0
			var failed []string
			for _, r := range res.Relays {
				if r.Status == relaypool.StatusOK {
					answered++
				} else {
					failed = append(failed, cmdutil.RelayFailure(r.URL, r.Status, r.Reason))
				}
			}
			if answered == 0 {
				retry := suggest.Roster("project", "list")
				for _, r := range res.Relays {
					if r.Status == relaypool.StatusTimeout {
						retry = retry.With("--timeout", "30s")
						break
					}
				}
				return cmdutil.RelayOutageErr("the projects", answered, failed, []suggest.Command{
					retry.Because("retry once the relay is back")}, map[string]any{"relays": res.Relays})
			}
			for _, l := range res.Projects {
				p := report.ProjectListed{Coordinate: l.Coordinate.String(), Naddr: projectNaddr(l.Coordinate, l.Relay), Relay: l.Relay,
					Why: l.Why, OwnerNpub: gitstate.EncodeNpub(l.Coordinate.Owner), IdentityEvent: l.IdentityEvent}
				if st := l.State; st != nil {
					p.State, p.Revision, p.Deleted, p.Name = true, st.Revision, st.Deleted, st.Document.Name
					if h := st.Document.HomeChannel; h != "" {
						p.HomeChannel = &h
					}
				}
				out.Projects = append(out.Projects, p)
			}
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, out)
			}
			w := a.Io.Out
			width := render.TerminalWidth(a) // rows wrap between words on a terminal
			fmt.Fprintf(w, "projects: %d\n", len(out.Projects))
			for _, p := range out.Projects {
				state := fmt.Sprintf("revision %d", p.Revision)
				switch {
				case !p.State:
					state = "no relay-signed state"
				case p.Deleted:
					state = fmt.Sprintf("deleted at revision %d", p.Revision)
				}
				render.FitLine(w, width, 4, fmt.Sprintf("  %s  %s (%s; %s)", termtext.Line(p.Coordinate), termtext.Line(p.Name), state, strings.Join(p.Why, ", ")))
				fmt.Fprintf(w, "    %s\n", p.Naddr)
			}
			for _, f := range failed {
				render.FitLine(w, width, 4, "  relay "+termtext.Line(f))
			}
			for _, t := range out.Truncated {
				render.FitLine(w, width, 4, fmt.Sprintf("  %s returned %d Project States: projects by home channel beyond them are not listed", termtext.Line(t), projects.MaxListedStates))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&owner, "owner", "", "list this owner's projects (npub, hex or NIP-05 name@domain; default: yours and those whose home channel you administer)")
	return cmd
}
