package group

import (
	"context"
	"errors"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/watch"
	"github.com/roster-cli/roster/workspace/groups"
)

// watched is one answer of `group show --watch`.
type watched struct {
	out   report.Group
	trees map[string]groups.TreeNode
}

// watchGroup is `group show --watch`: the read of `group show` again on
// every new relay-signed 39000-39003 of the group (groups.ReadFilters),
// printed when a relay's group state changes.
func watchGroup(ctx context.Context, a *cmdutil.Factory, pool *relaypool.Pool, ref groups.Ref, relays []string) error {
	id := ref.ID
	first := true
	resolve := func(ctx context.Context, _ []*nostr.Event) (watch.Answer, error) {
		rd := groups.Read(ctx, pool, relays, id)
		groupCachePut(a, rd)
		if first {
			groupSelfWarning(a, ref, rd.Relays...)
			if err := groupReadErr(ctx, a, pool, ref, relays, rd, ""); err != nil {
				return watch.Answer{}, err
			}
			first = false
		} else if !rd.Found {
			return watch.Answer{}, errors.New("no relay answered with the group's relay-signed state")
		}
		out := report.Group{Schema: "roster.group/v1", ID: id, Complete: rd.Complete, Relays: rd.Relays}
		fp, err := watch.Fingerprint(out, cmdutil.WatchTransport...)
		if err != nil {
			return watch.Answer{}, err
		}
		g := watched{out: out}
		if !a.Opts.JSON {
			g.trees = groupTrees(ctx, pool, rd, id)
		}
		return watch.Answer{Fingerprint: fp, Value: g,
			Follow: watch.Follow{Relays: relays, Filters: groups.ReadFilters(id, "")}}, nil
	}
	return a.RunWatch(ctx, pool, resolve,
		func(ans watch.Answer) any { return ans.Value.(watched).out },
		func(ans watch.Answer) {
			g := ans.Value.(watched)
			groupRender(a, g.out, g.trees)
		})
}
