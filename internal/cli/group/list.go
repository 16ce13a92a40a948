// `roster group list` and `roster group show --me`: one call to
// workspace/groups, rendered.

package group

import (
	"context"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/spf13/cobra"
)

// NewCmdList builds `roster group list`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdList(a *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return newGroupListCmd(a, runF)
}

func newGroupListCmd(a *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	var mine bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the groups each relay hosts (its signed kind 39000)",
		Long: `Asks every relay for its group metadata (kind 39000) and lists, per relay, the
groups whose newest 39000 that relay's own NIP-11 self signed: id, name and
whether it is live (not archived or deleted). 39000s signed by anyone else
are counted as rejected and never listed. A relay that does not answer is
named; when none answers, exit 4.

With --mine it lists instead the groups in your kind 10009 groups list
(NIP-51; needs a signer): each entry's relay'id and name, from the newest
version any relay asked returned. join and leave --save keep it up to date.`,
		Example: `  roster group list --relay wss://relay.example
  roster group list --relay wss://relay.example --json
  roster group list --mine --relay wss://relay.example`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			relays := relaypool.NormalizeRelays(a.DefaultRelays())
			if len(relays) == 0 {
				return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "no-relays",
					Err:      fmt.Errorf("no relay to ask for groups: a group lives on a relay; pass --relay or set ROSTER_RELAYS"),
					Commands: []suggest.Command{suggest.Roster("group", "list").With("--relay", "wss://<relay>")}}
			}
			if a.Opts.Offline {
				return cmdutil.UsageErr("group state is relay-authoritative and is not read from the cache; drop --offline")
			}
			if runF != nil {
				return runF(cmd.Context(), &ListOptions{Factory: a, Relays: relays, Mine: mine})
			}
			if mine {
				return groupListMine(cmd.Context(), a, relays)
			}
			pool := a.Pool(cmdutil.AuthLazy)
			defer pool.Close()
			rl := groups.List(cmd.Context(), pool, relays)
			out := report.GroupList{Schema: "roster.group.list/v1", Relays: rl.Relays, Complete: rl.Complete}
			answered, failed, statuses := 0, []string{}, []string{}
			for _, r := range rl.Relays {
				statuses = append(statuses, r.Status)
				if r.Status == relaypool.StatusOK {
					answered++
				} else {
					failed = append(failed, cmdutil.RelayFailure(r.URL, r.Status, r.Reason))
				}
			}
			if answered == 0 {
				show := suggest.Roster("group", "list")
				return cmdutil.RelayOutageErr("the groups", answered, failed, []suggest.Command{
					cmdutil.RetryLater(show, statuses...)}, map[string]any{"relays": out.Relays})
			}
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, out)
			}
			w := a.Io.Out
			width := render.TerminalWidth(a) // rows wrap between words on a terminal
			for _, r := range out.Relays {
				render.FitLine(w, width, 4, fmt.Sprintf("groups on %s (%s): %d", termtext.Line(r.URL), termtext.Line(cmdutil.RelayOutcome(r.Status, r.Reason)), len(r.Groups)))
				if r.Error != "" {
					render.FitLine(w, width, 4, "  "+termtext.Line(r.Error))
				}
				for _, g := range r.Groups {
					state := "live"
					if g.Metadata.Deleted {
						state = "deleted"
					} else if g.Metadata.Archived {
						state = "archived"
					}
					render.FitLine(w, width, 4, fmt.Sprintf("  %s  %s (%s)", termtext.Line(g.ID), termtext.Line(termui.Dash(g.Metadata.Name)), state))
				}
				if r.Rejected > 0 {
					fmt.Fprintf(w, "  ignored %d kind 39000 event(s) not signed by the relay\n", r.Rejected)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&mine, "mine", false, "list the groups in your kind 10009 groups list (needs a signer)")
	return cmd
}

// groupShowMe reads the viewer's membership of group id on every relay.
func groupShowMe(ctx context.Context, a *cmdutil.Factory, pool *relaypool.Pool, relays []string, ref groups.Ref) error {
	id := ref.ID
	_, me, err := a.SignerAndPubkey(ctx)
	if err != nil {
		return err
	}
	rd := groups.ReadMember(ctx, pool, relays, id, me)
	out := report.GroupMe{Schema: "roster.group.me/v1", ID: id, You: render.WsPerson(me, ""), Complete: rd.Complete, Relays: []report.GroupMeRelay{}}
	for _, r := range rd.Relays {
		out.Relays = append(out.Relays, report.GroupMeRelay{URL: r.URL, Status: r.Status, Reason: r.Reason, Self: r.Self, Error: r.Error,
			Found: r.Found, Live: r.Live, Membership: r.Me})
	}
	groupCachePut(a, rd)
	if !rd.Found && !rd.Complete {
		return groupReadErr(ctx, a, pool, ref, relays, rd, me)
	}
	if !rd.Found {
		return &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "not-found",
			Err:      fmt.Errorf("no relay-signed state for group %s on %s", id, strings.Join(relays, ", ")),
			Details:  map[string]any{"id": id, "relays": out.Relays},
			Commands: []suggest.Command{suggest.Roster("group", "list").Because("the groups each relay hosts")}}
	}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	w := a.Io.Out
	// Short npubs and wrapped rows on a terminal, as group show.
	pt, width := render.People(a, nil, ""), render.TerminalWidth(a)
	for _, r := range out.Relays {
		render.FitLine(w, width, 4, fmt.Sprintf("you (%s) in group %s on %s (%s)", pt.Of(me), termtext.Line(id), termtext.Line(r.URL), termtext.Line(cmdutil.RelayOutcome(r.Status, r.Reason))))
		m := r.Membership
		if m == nil {
			continue
		}
		verdict := "not a member"
		if m.Member {
			verdict = "member"
		}
		why := map[string]string{"put-user": "latest kind 9000 put-user " + m.EventID, "remove-user": "latest kind 9001 remove-user " + m.EventID,
			"members-list": "listed in the relay-signed kind 39002 " + m.EventID, "none": "no kind 9000/9001 names you and the 39002 does not list you"}[m.Basis]
		render.FitLine(w, width, 4, fmt.Sprintf("  %s  (%s)", verdict, why))
		roles := "none"
		if len(m.Roles) > 0 {
			roles = termtext.Line(strings.Join(m.Roles, ", "))
		}
		fmt.Fprintf(w, "  roles    %s\n", roles)
	}
	return nil
}
