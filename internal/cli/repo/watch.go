package repo

import (
	"context"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/watch"
)

// watched is one answer of `roster repo --watch`.
type watched struct {
	v   *RepoView
	rep *report.Repo
}

// watchRepo is `roster repo --watch`: the read of `roster repo`, run again
// (the cache warm) on every new announcement, state, deletion or profile
// that could change it (discovery.View.LiveFilters), with the events
// delivered live added (a relay may answer a repeated filter from a
// cache); printed when the answer changes.
func watchRepo(a *cmdutil.Factory, ctx context.Context) error {
	if err := a.WatchFlagErr(); err != nil {
		return err
	}
	pool := a.Pool(cmdutil.AuthLazy)
	defer pool.Close()
	resolve := func(ctx context.Context, live []*nostr.Event) (watch.Answer, error) {
		v, err := LoadRepoWith(a, ctx, cmdutil.SourceOptions{Profiles: true}, PartialEvidence)
		if err != nil {
			return watch.Answer{}, err
		}
		if len(live) > 0 {
			v = v.Including(live)
		}
		rep := report.FromView(v)
		// What each relay answered is how the read went, not the answer.
		// The human view also shows the announcement's metadata, which
		// roster.repo/v2 does not carry.
		var doc any = rep
		if !a.Opts.JSON {
			doc = struct {
				Doc  *report.Repo    `json:"doc"`
				Meta report.Metadata `json:"meta"`
			}{rep, rep.Meta}
		}
		fp, err := watch.Fingerprint(doc, "relays", "complete")
		if err != nil {
			return watch.Answer{}, err
		}
		return watch.Answer{Fingerprint: fp, Value: watched{v: v, rep: rep},
			Follow: watch.Follow{Relays: v.Relays, Filters: v.LiveFilters()}}, nil
	}
	return a.RunWatch(ctx, pool, resolve,
		func(ans watch.Answer) any { return ans.Value.(watched).rep },
		func(ans watch.Answer) {
			w := ans.Value.(watched)
			rep := *w.rep
			given := pendingCommands(w.v)
			rep.Shown = commandLines(given)
			render.PasteFindings(rep.Health, render.Selectors(a))
			renderRepoHumanAs(a.Io.Out, &rep, termui.NewStyles(a.Io.Out, a.Io.Color()), render.People(a, rep.Names, rep.Viewer), render.TerminalWidth(a))
			PrintAdvisories(a, w.v, given...)
		})
}
