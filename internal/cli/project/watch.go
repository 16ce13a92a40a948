package project

import (
	"context"
	"errors"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/watch"
	"github.com/roster-cli/roster/workspace/projects"
)

// watchTransport are roster.project/v1's keys that say how the read went
// (each relay's status and reason, complete, a stale cached answer), not
// what the project is.
var watchTransport = append([]string{"stale", "stale_reason"}, cmdutil.WatchTransport...)

// watchProject is `project show --watch`: the read of `project show` again
// on every new relay-signed Project State of the project
// (projects.ReadFilters), printed when the shown state changes.
func watchProject(ctx context.Context, a *cmdutil.Factory, arg string, c projects.Coordinate, relays []string) error {
	if err := a.WatchFlagErr(); err != nil {
		return err
	}
	pool := a.Pool(cmdutil.AuthLazy)
	defer pool.Close()
	first := true
	resolve := func(ctx context.Context, _ []*nostr.Event) (watch.Answer, error) {
		rd := projects.Read(ctx, pool, relays, c)
		projectCachePut(a, rd)
		if rd.Best == nil {
			if first {
				return watch.Answer{}, projectNotFound(a, arg, c, rd)
			}
			return watch.Answer{}, errors.New("no relay answered with a valid Project State")
		}
		first = false
		out := projectView(c, rd)
		// The member repositories, read as the one-shot show reads them;
		// the watch follows the Project State, so a repository's own
		// change shows with the next change of the project.
		var members []projects.Member
		if !rd.Best.Deleted {
			members = rd.Best.Document.Members
		}
		repos, err := projectRepositories(ctx, a, relays, members, discovery.Partial, true, false, false)
		if err != nil {
			return watch.Answer{}, err
		}
		out.Schema, out.Repositories = projectShowSchema, &repos
		fp, err := watch.Fingerprint(out, watchTransport...)
		if err != nil {
			return watch.Answer{}, err
		}
		return watch.Answer{Fingerprint: fp, Value: out,
			Follow: watch.Follow{Relays: relays, Filters: projects.ReadFilters(c)}}, nil
	}
	return a.RunWatch(ctx, pool, resolve,
		func(ans watch.Answer) any { return ans.Value },
		func(ans watch.Answer) { projectRender(a, ans.Value.(report.Project)) })
}
