// `roster group list --mine`: the signer's kind 10009 groups list.

package group

import (
	"context"
	"fmt"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/groups"
)

func groupListMine(ctx context.Context, a *cmdutil.Factory, relays []string) error {
	_, me, err := a.SignerAndPubkey(ctx)
	if err != nil {
		return err
	}
	pool := a.Pool(cmdutil.AuthLazy)
	defer pool.Close()
	lists, statuses, complete := groups.ListsRead(ctx, pool, relays, []string{me})
	evt := lists[me]
	out := report.GroupMine{Schema: "roster.group.mine/v1", You: render.WsPerson(me, ""), Groups: groups.EntriesOf(evt), Relays: relays, Complete: complete}
	if evt == nil && !complete {
		return cmdutil.RelayOutageErr("your kind 10009 groups list", 0, []string{"some relay asked did not answer"},
			[]suggest.Command{cmdutil.RetryLater(suggest.Roster("group", "list", "--mine"), statuses...)},
			map[string]any{"relays": relays})
	}
	if evt != nil {
		out.EventID, out.CreatedAt = evt.ID, int64(evt.CreatedAt)
	}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	w := a.Io.Out
	if evt == nil {
		fmt.Fprintln(w, "no kind 10009 groups list of yours on the relays asked; roster group join <group> --save starts one")
		return nil
	}
	fmt.Fprintf(w, "your groups (kind 10009 %s): %d\n", evt.ID, len(out.Groups))
	for _, g := range out.Groups {
		name := ""
		if g.Name != "" {
			name = "  " + termtext.Line(g.Name)
		}
		fmt.Fprintf(w, "  %s'%s%s\n", termtext.Line(g.Relay), termtext.Line(g.ID), name)
	}
	if !complete {
		fmt.Fprintln(w, "  (not every relay answered: a newer version may be on one that did not)")
	}
	return nil
}
