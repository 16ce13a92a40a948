// Group state in the local cache, and the migration check it makes
// possible when a group's relay is down.

package group

import (
	"context"
	"fmt"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/groups"
)

// groupCachePut keeps every relay's verified group state (groups.Keep).
// The cache is an accelerator: failures cost a warning.
func groupCachePut(a *cmdutil.Factory, rd groups.ReadResult) {
	var found []groups.RelayRead
	for _, r := range rd.Relays {
		if r.Found {
			found = append(found, r)
		}
	}
	groupCacheRelay(a, found...)
}

func groupCacheRelay(a *cmdutil.Factory, rrs ...groups.RelayRead) {
	if len(rrs) == 0 {
		return
	}
	withCache(a, func(s cmdutil.CacheStore) {
		for _, rr := range rrs {
			if !rr.Found {
				continue
			}
			for _, p := range groups.Keep(s, rr) {
				fmt.Fprintf(a.Io.Err, "roster: warning: %s\n", termtext.Line(p))
			}
		}
	})
}

// withCache runs f on the opened cache, or warns that it cannot.
func withCache(a *cmdutil.Factory, f func(cmdutil.CacheStore)) {
	store, err := a.Store("group state is not cached")
	if err != nil {
		return
	}
	defer store.Close()
	f(store)
}

// groupMoveSearch runs the migration check (groups.SearchMoves) with the
// cache when it opens, the configured relays and me.
func groupMoveSearch(ctx context.Context, a *cmdutil.Factory, pool *relaypool.Pool, read []groups.RelayRead, id, me string) groups.MoveSearch {
	lookup := relaypool.NormalizeRelays(a.DefaultRelays())
	var ms groups.MoveSearch
	found := false
	withCache(a, func(s cmdutil.CacheStore) {
		ms, found = groups.SearchMoves(ctx, pool, s, read, lookup, id, me), true
	})
	if !found {
		ms = groups.SearchMoves(ctx, pool, nil, read, lookup, id, me)
	}
	return ms
}

// withMoves adds what the migration check found to an outage error: the
// words, details.moves, and the commands that read and rejoin the group
// where the lists point, first.
func withMoves(e *cmdutil.ExitError, ms groups.MoveSearch) *cmdutil.ExitError {
	e.Details["moves"] = ms
	note, cmds := ms.Advice()
	e.Err = fmt.Errorf("%w\n%s", e.Err, note)
	if e.Terminal != "" {
		e.Terminal += "\n" + termtext.Line(note)
	}
	e.Commands = append(cmds, e.Commands...)
	return e
}
