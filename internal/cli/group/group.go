package group

import (
	"context"
	"fmt"
	"io"
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

func NewGroupCmd(a *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "group",
		Short: "NIP-29 groups on the relay that hosts them: read, join, leave and moderate",
		Long: `A NIP-29 group lives on a relay, which signs its metadata (kind 39000),
admins with roles (39001), members (39002) and supported roles (39003). roster
reads only events signed by the relay's own NIP-11 "self" key, and a newer
version of each replaces the older one entirely. A project's home channel is
such a group: its active "owner" and "admin" roles may change the project's
related channels.`,
		Example: `  roster group show 99999999-9999-4999-8999-999999999999 --relay wss://relay.example
  roster group show my-group --relay wss://relay.example --json`,
	}
	cmd.AddCommand(NewCmdShow(a, nil), NewCmdList(a, nil), NewCmdMembers(a, nil), NewCmdJoin(a, nil), NewCmdLeave(a, nil),
		NewCmdCreate(a, nil), NewCmdEdit(a, nil), NewCmdAdd(a, nil), NewCmdRemove(a, nil), NewCmdInvite(a, nil),
		NewCmdDeleteEvent(a, nil), NewCmdDelete(a, nil))
	// Every command of it reads relays and prints JSON.
	cmdutil.AddLeafFlags(cmd, &a.Opts, cmdutil.OutputFlags|cmdutil.NetworkFlags|cmdutil.HomeFlag)
	render.AddFullFlag(cmd, a)
	return cmd
}

// NewCmdShow builds `roster group show`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdShow(a *cmdutil.Factory, runF func(context.Context, *ShowOptions) error) *cobra.Command {
	var me, watching bool
	cmd := &cobra.Command{
		Use:   "show <group>",
		Short: "Show a group's relay-signed metadata, admins, members and roles",
		Long: `Shows, for every relay asked, the group state that relay signed. Events for
the group signed by any other key are listed as rejected and never used.
Exit 4 when no relay has any signed state for the group.

With --me it shows your membership instead (needs a signer): on each relay,
the latest kind 9000 put-user or 9001 remove-user naming you decides (NIP-29
"Checking your own membership"); without one, the relay-signed 39002
listing you makes you a member; otherwise you are not. Your roles are the
relay-signed 39001's.

With --offline it answers from the local cache (each relay's last verified
state, checked again against its cached NIP-11 self; status "cache",
complete false); exit 4 offline-miss when nothing is cached.

With --watch it stays: one live subscription per relay on the group's
relay-signed state, and the group is printed again each time a relay signs
a change (with --json, one document per line). Ctrl-C ends it (exit 0).

` + groupRefHelp,
		Example: `  roster group show 99999999-9999-4999-8999-999999999999 --relay wss://relay.example
  roster group show 99999999-9999-4999-8999-999999999999 --relay wss://relay.example --json
  roster group show 99999999-9999-4999-8999-999999999999 --me --relay wss://relay.example
  roster group show "relay.example'99999999-9999-4999-8999-999999999999"
  roster group show 'naddr1...?invite=c0de'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ref, relays, err := groupTarget(a, args[0], "show")
			if err != nil {
				return err
			}
			id := ref.ID
			if watching {
				if err := a.WatchFlagErr(); err != nil {
					return err
				}
				if me {
					return cmdutil.UsageErr("--watch follows the group's relay-signed state; drop --me to follow it")
				}
			}
			if a.Opts.Offline && me {
				return cmdutil.UsageErr("--me reads the 9000/9001 events naming you, which the cache does not keep; drop --offline")
			}
			if runF != nil {
				return runF(cmd.Context(), &ShowOptions{Factory: a, Ref: ref, Relays: relays, Me: me, Watch: watching})
			}
			if a.Opts.Offline {
				return groupShowOffline(a, ref, relays)
			}
			pool := a.Pool(cmdutil.AuthLazy)
			defer pool.Close()
			ctx := cmd.Context()
			if me {
				return groupShowMe(ctx, a, pool, relays, ref)
			}
			if watching {
				return watchGroup(ctx, a, pool, ref, relays)
			}
			rd := groups.Read(ctx, pool, relays, id)
			out := report.Group{Schema: "roster.group/v1", ID: id, Complete: rd.Complete, Relays: rd.Relays}
			groupCachePut(a, rd)
			groupSelfWarning(a, ref, rd.Relays...)
			if err := groupReadErr(ctx, a, pool, ref, relays, rd, ""); err != nil {
				return err
			}
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, out)
			}
			groupRender(a, out, groupTrees(ctx, pool, rd, id))
			return nil
		},
	}
	cmd.Flags().BoolVar(&me, "me", false, "show your membership and roles (needs a signer)")
	cmd.Flags().BoolVar(&watching, "watch", false, cmdutil.WatchHelp)
	return cmd
}

// groupRender prints each relay's view. The metadata, role names, relay
// reasons and rejection reasons are the relay's or the group members' text:
// each is printed through termtext.Line, so it stays on its row.
func groupRender(a *cmdutil.Factory, g report.Group, trees map[string]groups.TreeNode) {
	w := a.Io.Out
	// On a terminal npubs are short and long rows wrap between words;
	// in a pipe both are as they always were.
	var who, relays []string
	for _, r := range g.Relays {
		relays = append(relays, r.URL)
		for _, ad := range r.Group.Admins {
			who = append(who, ad.Pubkey)
		}
	}
	pt, width := render.PeopleShown(a, context.Background(), relays, who...), render.TerminalWidth(a)
	row := func(format string, args ...any) { render.FitLine(w, width, 11, fmt.Sprintf(format, args...)) }
	for _, r := range g.Relays {
		row("group %s on %s (%s)", termtext.Line(g.ID), termtext.Line(r.URL), termtext.Line(cmdutil.RelayOutcome(r.Status, r.Reason)))
		if r.Error != "" {
			row("  %s", termtext.Line(r.Error))
		}
		st := r.Group
		if !r.Found {
			row("  no relay-signed state")
		} else {
			if m := st.Metadata; m != nil {
				state := "live"
				if m.Deleted {
					state = "deleted"
				} else if m.Archived {
					state = "archived"
				}
				// A group created without 9002 metadata has no name: a dash,
				// as elsewhere, not a blank before its state.
				row("  name     %s (%s)", termtext.Line(termui.Dash(m.Name)), state)
				if m.About != "" {
					row("  about    %s", termtext.Line(m.About))
				}
			} else {
				row("  no metadata (kind 39000): not a live group")
			}
			for _, ad := range st.Admins {
				row("  admin    %s  %s", pt.Of(ad.Pubkey), termtext.Line(strings.Join(ad.Roles, ", ")))
			}
			row("  members  %d", len(st.Members))
			var roles []string
			for _, ro := range st.Roles {
				roles = append(roles, ro.Name)
			}
			if len(roles) > 0 {
				row("  roles    %s", termtext.Line(strings.Join(roles, ", ")))
			}
			if tree, ok := trees[r.URL]; ok {
				row("  subgroups (this relay's tree; * is this group)")
				groupTreeRender(w, tree, g.ID, "    ")
			}
		}
		for _, rj := range st.Rejected {
			row("  ignored  kind %d event %s: %s", rj.Kind, termtext.Line(rj.EventID), termtext.Line(rj.Reason))
		}
	}
}

// groupShowOffline answers group show --offline from the cache.
func groupShowOffline(a *cmdutil.Factory, ref groups.Ref, relays []string) error {
	var rd groups.ReadResult
	withCache(a, func(s cmdutil.CacheStore) { rd = groups.ReadStore(s, relays, ref.ID) })
	if !rd.Found {
		return &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "offline-miss",
			Err:      fmt.Errorf("no cached state for group %s from %s; read it online once", ref.ID, strings.Join(relays, ", ")),
			Commands: []suggest.Command{suggest.Roster("group", "show", ref.String())}}
	}
	out := report.Group{Schema: "roster.group/v1", ID: ref.ID, Relays: rd.Relays, Complete: false}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	groupRender(a, out, nil)
	return nil
}

// groupTrees reads, from each relay where the group has a parent or
// children, every 39000 it signed, to show the group's subgroup tree there
// (nip-29.md "Subgroups": clients assemble it locally, per relay).
func groupTrees(ctx context.Context, pool *relaypool.Pool, rd groups.ReadResult, id string) map[string]groups.TreeNode {
	trees := map[string]groups.TreeNode{}
	for _, r := range rd.Relays {
		m := r.Group.Metadata
		if !r.Found || m == nil || m.Parent == "" && len(m.Children) == 0 {
			continue
		}
		if l := groups.List(ctx, pool, []string{r.URL}); len(l.Relays) == 1 {
			if t, ok := groups.Tree(l.Relays[0].Groups, id); ok {
				trees[r.URL] = t
			}
		}
	}
	return trees
}

// groupTreeRender prints n and its children, one level deeper each.
func groupTreeRender(w io.Writer, n groups.TreeNode, id, indent string) {
	mark := " "
	if n.ID == id {
		mark = "*"
	}
	label := termtext.Line(n.ID)
	switch {
	case n.Missing:
		label += "  (no metadata on this relay)"
	case n.Name != "":
		label += "  " + termtext.Line(n.Name)
	}
	fmt.Fprintf(w, "%s%s %s\n", indent, mark, label)
	for _, c := range n.Children {
		groupTreeRender(w, c, id, indent+"  ")
	}
}

// groupReadErr is the read's exit 4 when no relay has the group: an outage
// when a relay asked did not answer, else not-found.
// An outage also looks for the group elsewhere (groupMoveSearch), through
// the cached admins' kind 10009 lists and, when me is known, mine.
func groupReadErr(ctx context.Context, a *cmdutil.Factory, pool *relaypool.Pool, ref groups.Ref, relays []string, rd groups.ReadResult, me string) error {
	id := ref.ID
	if rd.Found {
		return nil
	}
	if !rd.Complete {
		e := groupOutage(a, ref, rd.Fetch, report.Group{Schema: "roster.group/v1", ID: id, Relays: rd.Relays, Complete: rd.Complete})
		return withMoves(e, groupMoveSearch(ctx, a, pool, rd.Relays, id, me))
	}
	return &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "not-found",
		Err:      fmt.Errorf("no relay-signed state for group %s on %s", id, strings.Join(relays, ", ")),
		Details:  map[string]any{"id": id, "relays": rd.Relays},
		Commands: []suggest.Command{suggest.Roster("group", "show", id).With("--relay", "wss://<relay hosting the group>")}}
}

// groupOutage is exit 4 "incomplete": no relay that answered has the group,
// and a relay that did not answer may host it.
func groupOutage(a *cmdutil.Factory, ref groups.Ref, res *relaypool.FetchResult, out report.Group) *cmdutil.ExitError {
	id := ref.ID
	answered, failed, statuses := 0, []string{}, []string{}
	for _, r := range res.Relays {
		statuses = append(statuses, r.Status)
		if r.Status == relaypool.StatusOK {
			answered++
		} else {
			failed = append(failed, cmdutil.RelayFailure(r.URL, r.Status, r.Reason))
		}
	}
	show := suggest.Roster("group", "show", ref.String())
	cmds := []suggest.Command{cmdutil.RetryLater(show, statuses...)}
	if ref.Relay == "" {
		cmds = append(cmds, show.With("--relay", "wss://<another relay hosting the group>"))
	}
	return cmdutil.RelayOutageErr("group "+id, answered, failed, cmds, map[string]any{"id": id, "relays": out.Relays})
}
