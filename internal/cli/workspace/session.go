package workspace

import (
	"context"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pending"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/sections"
)

// wsSession is one workspace command's sections.Session with the pool and
// cache that cmd opened for it.
type wsSession struct {
	*sections.Session
	pool  *relaypool.Pool
	cache *cache.Cache // nil when the cache cannot be opened
	// lookups are the NIP-05 names the arguments were given as (the
	// owner's, a grantee's), for the result.
	lookups cmdutil.Lookups
}

// openWorkspace builds the session. A workspace lives on exactly one relay
// (the community derives from the relay's host), so exactly one --relay.
// lookups are the NIP-05 names the command's arguments were resolved from.
// A refusal of the relays or of --owner offers the command as typed with
// that input to fill in (typedRetry).
func openWorkspace(a *cmdutil.Factory, ctx context.Context, ownerFlag string, lookups ...cmdutil.Nip05Lookup) (*wsSession, error) {
	relays := relaypool.NormalizeRelays(a.DefaultRelays())
	if len(relays) != 1 {
		return nil, &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "one-relay",
			Err:      fmt.Errorf("a workspace belongs to the one relay whose host is its community; pass exactly one --relay (got %d)", len(relays)),
			Commands: []suggest.Command{typedRetry(a, nil).With("--relay", "wss://<community relay>")}}
	}
	community, err := sections.CanonicalCommunity(relays[0])
	if err != nil {
		return nil, cmdutil.UsageErr("%v", err)
	}
	s, me, err := a.SignerAndPubkey(ctx)
	if err != nil {
		return nil, err
	}
	owner := me
	if ownerFlag != "" {
		var l cmdutil.Lookups
		if ownerFlag, l, err = a.ResolvePubkeyArg(ctx, "--owner", ownerFlag, false, typedRetry(a, map[string]string{"--owner": "<npub>"})); err != nil {
			return nil, err
		}
		lookups = append(lookups, l...)
		if owner, err = gitstate.DecodePubkey(ownerFlag); err != nil {
			return nil, cmdutil.UsageErr("--owner: %v", err)
		}
	}
	// The keys NIP-05 names resolved to (the owner's, a grantee's), shown
	// before anything is read or sent.
	a.PrintLookups(lookups)
	// AuthFirst: the projection is delivered only to the owner and active
	// grantees, and a relay that does not refuse anonymous REQs withholds
	// it silently; answer its NIP-42 challenge before asking.
	pool := a.Pool(cmdutil.AuthFirst)
	ws := &wsSession{pool: pool, lookups: lookups, Session: &sections.Session{Relays: pool, Publish: pipeline.PoolPublish(pool), Signer: s, Now: func() nostr.Timestamp { return cmdutil.NostrNow(a) },
		Offline: a.Opts.Offline, Me: me, Owner: owner, Relay: relays[0], Community: community}}
	if data, err := a.DataDir(); err == nil {
		// The kept import lives with the login's files, not in the cache
		// directory: clearing the cache must not make a retry mint a
		// second import.
		ws.Pending = pending.Dir{Root: data, Relay: relays[0]}
	}
	// Every other command is kept in the journal of unfinished writes from
	// before it is sent until the read-back shows it (without a data
	// directory the journal refuses, and the write stops before sending).
	ws.Journal, ws.Rerun = a.Journal(), a.RerunWords()
	if store, err := a.Store("reading without the local cache"); err == nil {
		ws.cache, ws.Store = store.C, store
	}
	ws.Connect(ctx)
	return ws, nil
}

func (ws *wsSession) close() {
	ws.pool.Close()
	if ws.cache != nil {
		_ = ws.cache.Close()
	}
}

func WorkspaceCacheKey(community, owner, reader string) string {
	return sections.CacheKey(community, owner, reader)
}
