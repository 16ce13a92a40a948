// Group state in the local cache, and the migration check it makes
// possible when a group's relay is down.

package group

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
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

// groupMoveSearch runs the migration check for the relays of rd that did
// not answer: the kind 10009 lists of the admins the cache knows, and of me
// (when known), read from the configured relays that are not down.
func groupMoveSearch(ctx context.Context, a *cmdutil.Factory, pool *relaypool.Pool, read []groups.RelayRead, id, me string) groups.MoveSearch {
	var down []string
	for _, r := range read {
		if r.Status != relaypool.StatusOK {
			down = append(down, r.URL)
		}
	}
	lookup := relaypool.NormalizeRelays(a.DefaultRelays())
	var ms groups.MoveSearch
	found := false
	withCache(a, func(s cmdutil.CacheStore) {
		ms, found = groups.LookForMoves(ctx, pool, s, down, lookup, id, me), true
	})
	if !found {
		ms = groups.LookForMoves(ctx, pool, nil, down, lookup, id, me)
	}
	return ms
}

// withMoves adds what the migration check found to an outage error: the
// words, details.moves, and the commands that read and rejoin the group
// where the lists point, first.
func withMoves(e *cmdutil.ExitError, id string, ms groups.MoveSearch) *cmdutil.ExitError {
	e.Details["moves"] = ms
	var words []string
	var cmds []suggest.Command
	for _, s := range ms.Found {
		var who []string
		for _, p := range s.ListedBy {
			tag := graph.Npub(p)
			if slices.Contains(s.Admins, p) {
				tag += " (admin)"
			}
			who = append(who, tag)
		}
		words = append(words, fmt.Sprintf("%s (kind 10009 of %s)", s.Relay, strings.Join(who, ", ")))
		ref := s.Relay + "'" + id
		join := suggest.Roster("group", "join", ref, "--save")
		if len(ms.Unreachable) == 1 {
			join = join.With("--from", ms.Unreachable[0])
		}
		cmds = append(cmds, suggest.Roster("group", "show", ref).Because("read the group where the lists point"),
			join.Because("move your membership there and update your kind 10009"))
	}
	var note string
	switch {
	case len(ms.Found) > 0:
		note = fmt.Sprintf("\nthe group may have moved or been forked: groups lists name it on %s", strings.Join(words, "; "))
	case len(ms.Admins) == 0 && len(ms.Asked) > 0:
		note = fmt.Sprintf("\nno kind 10009 list read from %s names the group elsewhere (the admins are not cached: only your own list was checked, if you are signed in)", strings.Join(ms.Asked, ", "))
	case len(ms.Asked) > 0:
		note = fmt.Sprintf("\nno kind 10009 list of the group's %d cached admin(s) read from %s names it elsewhere", len(ms.Admins), strings.Join(ms.Asked, ", "))
	default:
		note = "\nno other relay to look for the group's admins' kind 10009 lists on: pass --relay with relays they use"
	}
	e.Err = fmt.Errorf("%w%s", e.Err, note)
	if e.Terminal != "" {
		e.Terminal += "\n" + termtext.Line(note[1:])
	}
	e.Commands = append(cmds, e.Commands...)
	return e
}
