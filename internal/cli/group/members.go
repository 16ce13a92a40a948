// `roster group members`: one groups.Read, each relay's members rendered.

package group

import (
	"context"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/spf13/cobra"
)

// NewCmdMembers builds `roster group members`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdMembers(a *cmdutil.Factory, runF func(context.Context, *MembersOptions) error) *cobra.Command {
	return &cobra.Command{
		Use:   "members <group>",
		Short: "List a group's members and their roles (relay-signed 39002 and 39001)",
		Long: `Lists, for every relay asked, the members its signed kind 39002 names, in its
order, with each one's roles from its signed kind 39001, then the admins the
39002 leaves out (listed: false). NIP-29 lets a relay publish a partial member
list or none, so this is what the relay shows, not necessarily everyone; your
own membership is ` + "`roster group show <group> --me`" + `. Exit 4 when no relay has
signed state for the group.

` + groupRefHelp,
		Example: `  roster group members 99999999-9999-4999-8999-999999999999 --relay wss://relay.example
  roster group members "relay.example'99999999-9999-4999-8999-999999999999" --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ref, relays, err := groupTarget(a, args[0], "members")
			if err != nil {
				return err
			}
			if a.Opts.Offline {
				return cmdutil.UsageErr("group state is relay-authoritative and is not read from the cache; drop --offline")
			}
			if runF != nil {
				return runF(cmd.Context(), &MembersOptions{Factory: a, Ref: ref, Relays: relays})
			}
			pool := a.Pool(cmdutil.AuthLazy)
			defer pool.Close()
			rd := groups.Read(cmd.Context(), pool, relays, ref.ID)
			groupCachePut(a, rd)
			if err := groupReadErr(cmd.Context(), a, pool, ref, relays, rd, ""); err != nil {
				return err
			}
			out := report.GroupMembers{Schema: "roster.group.members/v1", ID: ref.ID, Complete: rd.Complete, Relays: []report.GroupMembersRelay{}}
			for _, r := range rd.Relays {
				mr := report.GroupMembersRelay{URL: r.URL, Status: r.Status, Reason: r.Reason, Self: r.Self, Error: r.Error, Found: r.Found, Live: r.Live,
					Members: []report.GroupMember{}, Sources: r.Group.Sources}
				for _, m := range groups.MembersOf(*r.Group) {
					mr.Members = append(mr.Members, report.GroupMember{Member: m, Npub: graph.Npub(m.Pubkey)})
				}
				out.Relays = append(out.Relays, mr)
			}
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, out)
			}
			w := a.Io.Out
			// Short npubs and wrapped rows on a terminal, as group show.
			var who, shownOn []string
			for _, r := range out.Relays {
				shownOn = append(shownOn, r.URL)
				for _, m := range r.Members {
					who = append(who, m.Npub)
				}
			}
			pt, width := render.PeopleShown(a, cmd.Context(), shownOn, who...), render.TerminalWidth(a)
			for _, r := range out.Relays {
				render.FitLine(w, width, 4, fmt.Sprintf("members of group %s on %s (%s): %d", termtext.Line(ref.ID), termtext.Line(r.URL), termtext.Line(cmdutil.RelayOutcome(r.Status, r.Reason)), len(r.Members)))
				if r.Error != "" {
					render.FitLine(w, width, 4, "  "+termtext.Line(r.Error))
				}
				for _, m := range r.Members {
					roles := "member"
					if len(m.Roles) > 0 {
						roles = termtext.Line(strings.Join(m.Roles, ", "))
					}
					note := ""
					if !m.Listed {
						note = "  (admin not in the 39002 member list)"
					}
					render.FitLine(w, width, 4, fmt.Sprintf("  %s  %s%s", pt.Of(m.Npub), roles, note))
				}
			}
			return nil
		},
	}
}
