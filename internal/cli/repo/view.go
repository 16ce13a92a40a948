package repo

import (
	"context"
	"errors"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// RepoView is one discovery of a repository; every repository command
// (read or write) starts from one.
type RepoView = discovery.View

const (
	PartialEvidence  = discovery.Partial
	CompleteEvidence = discovery.Complete
)

// LoadRepo selects the coordinate and runs the read pipeline
// (discovery.Load) with the user's relays, cache and clock, turning what
// it could not do into exit errors that say what to run next. reach names
// the pubkeys a write will look at (discovery.Source.Reach).
//
// A read the --deadline or an interrupt ended is not a partial view: it
// returns the context's error, which the root reports as `deadline` (exit
// 4) or `interrupted` (exit 130) naming the phase, as documented.
func LoadRepo(a *cmdutil.Factory, ctx context.Context, need discovery.Evidence, reach ...string) (*RepoView, error) {
	return LoadRepoWith(a, ctx, cmdutil.SourceOptions{}, need, reach...)
}

// LoadRepoWith is LoadRepo asking what read says of the source: the
// profiles of the people shown (a read that names people), the progress
// line to report on.
func LoadRepoWith(a *cmdutil.Factory, ctx context.Context, read cmdutil.SourceOptions, need discovery.Evidence, reach ...string) (*RepoView, error) {
	v, err := discoverFor(a, ctx, read, need, false, reach...)
	v, err = RepoViewErr(a, v, err)
	if err == nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return v, err
}

// WriteQuery is the read a write pipeline runs itself (membership,
// statepub): the selected coordinate and checkout, the relays to ask, the
// source with read's options, the viewer, made a write's with reach
// (discovery.Query.Write). done ends the source's progress line. What the
// pipeline's discovery could not do comes back as discovery's own errors:
// RepoViewErr words them.
func WriteQuery(a *cmdutil.Factory, ctx context.Context, read cmdutil.SourceOptions, reach ...string) (q discovery.Query, done func(), err error) {
	sel, co, err := SelectCoordinate(a, ctx)
	if err != nil {
		return discovery.Query{}, func() {}, err
	}
	a.SharedRepo = gitstate.NostrURL(sel.Coordinate, sel.Relays)
	if a.Run.Phase == "" {
		a.Run.Phase = "discovering" // a pipeline that names its phases sets its own
	}
	src, done := a.RepoSource(DiscoveryRelays(a, sel), nil, read)
	q = discovery.Query{Source: src, Selection: sel, Checkout: co, Viewer: a.ViewerPubkey()}.Write(reach...)
	return q, done, nil
}

// Discover is loadRepo with discovery's own errors (*discovery.Incomplete,
// *NotFound, *NoRelays, *CacheError), for a caller that decides on them
// itself (the pre-push guard); a coordinate that cannot be selected is
// already an exit error.
func Discover(a *cmdutil.Factory, ctx context.Context, need discovery.Evidence, reach ...string) (*RepoView, error) {
	return discoverFor(a, ctx, cmdutil.SourceOptions{}, need, false, reach...)
}

// discoverFor is discover; publishes marks a write's read
// (discovery.Source.Publishes and Write).
func discoverFor(a *cmdutil.Factory, ctx context.Context, read cmdutil.SourceOptions, need discovery.Evidence, publishes bool, reach ...string) (*RepoView, error) {
	sel, co, err := SelectCoordinate(a, ctx)
	if err != nil {
		return nil, err
	}
	a.SharedRepo = gitstate.NostrURL(sel.Coordinate, sel.Relays)
	relays := DiscoveryRelays(a, sel)
	if a.Run.Phase == "" {
		a.Run.Phase = "discovering" // a read's one phase; a write names its own
	}
	src, done := a.RepoSource(relays, reach, read)
	src.Publishes = publishes
	src.Write = publishes
	v, err := discovery.Load(ctx, src, sel, co, need, a.ViewerPubkey(), a.Io.Now().Unix())
	done()
	return v, err
}

// RepoViewErr turns what discovery could not do into exit errors that say
// what to run next.
func RepoViewErr(a *cmdutil.Factory, v *RepoView, err error) (*RepoView, error) {
	var (
		incomplete *discovery.Incomplete
		notFound   *discovery.NotFound
		noRelays   *discovery.NoRelays
		cacheFail  *discovery.CacheError
		stale      *discovery.Stale
		bound      *discovery.RelayBound
		reachB     *discovery.ReachBound
	)
	switch {
	case err == nil:
		return v, nil
	case errors.As(err, &bound):
		return nil, relayBoundErr(a, bound)
	case errors.As(err, &reachB):
		return nil, reachBoundErr(a, reachB)
	case errors.As(err, &stale):
		return nil, staleErr(a, stale)
	case errors.As(err, &incomplete):
		return nil, incompleteErr(a, incomplete.View)
	case errors.As(err, &notFound):
		return nil, notFoundErr(a, notFound.View)
	case errors.As(err, &noRelays):
		return nil, noRelaysErr(a, noRelays.Selection)
	case errors.As(err, &cacheFail):
		var ee *cmdutil.ExitError
		if errors.As(cacheFail.Err, &ee) {
			return nil, ee
		}
		return nil, cacheErr(cacheFail.Doing, cacheFail.Err)
	}
	return nil, err
}
