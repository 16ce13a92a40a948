package repo

import (
	"context"
	"errors"

	"github.com/nbd-wtf/go-nostr"
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

// LoadRepoToWrite is loadRepo for a write: complete evidence from
// everyone's relays (discovery.Source.Write: the relays every reached
// announcement lists and the NIP-65 write relays of the viewer and of
// reach, in rounds until none is new, within discovery's bounds), and a
// cache that can keep what the write publishes (discovery.Source.Publishes).
func LoadRepoToWrite(a *cmdutil.Factory, ctx context.Context, reach ...string) (*RepoView, error) {
	return LoadRepoToWriteWith(a, ctx, cmdutil.SourceOptions{}, reach...)
}

// LoadRepoToWriteWith is LoadRepoToWrite with read's source options (a
// membership change: profiles for its preview, its one progress line).
func LoadRepoToWriteWith(a *cmdutil.Factory, ctx context.Context, read cmdutil.SourceOptions, reach ...string) (*RepoView, error) {
	v, err := discoverFor(a, ctx, read, CompleteEvidence, true, reach...)
	return RepoViewErr(a, v, err)
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

// ReloadRepo asks prev's relays again in one round (discovery.Again): a
// write's recheck and re-read. also adds filters to that request (the read-back after publishing); the
// view comes back with the error whenever relays answered, so the
// read-back can still say what each relay returned. read is the write's
// source options (LoadRepoToWriteWith).
func ReloadRepo(a *cmdutil.Factory, ctx context.Context, read cmdutil.SourceOptions, prev *RepoView, reach []string, also ...nostr.Filter) (*RepoView, error) {
	src, done := a.RepoSource(prev.Relays, reach, read)
	v, err := discovery.Again(ctx, src, prev, a.Io.Now().Unix(), also...)
	done()
	if err != nil {
		// A stale answer still says what each relay returned (a write's
		// last re-read compares it with what it verified itself).
		var stale *discovery.Stale
		if v == nil && errors.As(err, &stale) {
			v = stale.View
		}
		_, err = RepoViewErr(a, v, err)
		return v, err
	}
	return v, nil
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
