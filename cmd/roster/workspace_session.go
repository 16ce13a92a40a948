package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/sections"
)

// wsSession is one workspace command's world: the signer (who also decrypts),
// the one relay that is the workspace's authority, its NIP-11 self, the
// canonical community, the owner, and the local cache of verified projections.
type wsSession struct {
	a         *app
	s         signer.Signer
	me        string
	relay     string
	self      string
	community string
	owner     string
	pool      *relaypool.Pool
	cache     *cache.Cache // nil when the cache cannot be opened
	// infoErr is why the relay's NIP-11 document could not be read live.
	infoErr error
}

// openWorkspace builds the session. A workspace lives on exactly one relay
// (the community derives from the relay's host), so exactly one --relay.
func (a *app) openWorkspace(ctx context.Context, ownerFlag, example string) (*wsSession, error) {
	relays := relaypool.NormalizeRelays(a.defaultRelays())
	if len(relays) != 1 {
		return nil, &exitError{Code: exitUsage, Kind: "one-relay",
			Err:      fmt.Errorf("a workspace belongs to the one relay whose host is its community; pass exactly one --relay (got %d)", len(relays)),
			Commands: []string{example + " --relay wss://<community relay>"}}
	}
	community, err := sections.CanonicalCommunity(relays[0])
	if err != nil {
		return nil, usageErr("%v", err)
	}
	s, err := a.signer(ctx)
	if err != nil {
		return nil, err
	}
	me, err := s.PublicKey(ctx)
	if err != nil {
		return nil, signerError(err)
	}
	owner := me
	if ownerFlag != "" {
		if owner, err = gitstate.DecodePubkey(ownerFlag); err != nil {
			return nil, usageErr("--owner: %v", err)
		}
	}
	// AuthFirst: the projection is delivered only to the owner and active
	// grantees, and a relay that does not refuse anonymous REQs withholds
	// it silently; answer its NIP-42 challenge before asking.
	ws := &wsSession{a: a, s: s, me: me, relay: relays[0], community: community, owner: owner,
		pool: relaypool.New(relaypool.Options{Timeout: a.opts.Timeout, Auth: s.SignEvent, AuthFirst: true})}
	if home, err := a.home(); err == nil {
		if c, err := cache.Open(home); err == nil {
			ws.cache = c
		} else {
			fmt.Fprintf(a.io.Err, "roster: warning: %v; reading without the local cache\n", err)
		}
	}
	ws.self, ws.infoErr = ws.relaySelf(ctx)
	return ws, nil
}

func (ws *wsSession) close() {
	ws.pool.Close()
	if ws.cache != nil {
		_ = ws.cache.Close()
	}
}

// relaySelf reads the relay's NIP-11 `self` live (and caches the document);
// offline or when the relay is down it falls back to the cached document so
// a cached projection can still be verified and shown as stale.
func (ws *wsSession) relaySelf(ctx context.Context) (string, error) {
	if !ws.a.opts.Offline {
		info, err := ws.pool.RelayInfo(ctx, ws.relay)
		if err == nil {
			if ws.cache != nil && len(info.Raw) > 0 {
				_ = ws.cache.PutRelayInfo(ws.relay, info.Raw, ws.a.io.Now())
			}
			return info.Self, nil
		}
		if ws.cache != nil {
			if c, ok, _ := ws.cache.RelayInfo(ws.relay); ok {
				return c.Self, err
			}
		}
		return "", err
	}
	if ws.cache != nil {
		if c, ok, _ := ws.cache.RelayInfo(ws.relay); ok {
			return c.Self, nil
		}
	}
	return "", errors.New("--offline and no cached relay information")
}

// cacheKey: envelopes differ per reader, so one entry per reader.
func (ws *wsSession) cacheKey() string { return workspaceCacheKey(ws.community, ws.owner, ws.me) }

func workspaceCacheKey(community, owner, reader string) string {
	return "nip-sw/" + community + "/" + owner + "/" + reader
}

// fetchProjection asks the relay for the owner's projection signed by its
// self. Any relay answer short of EOSE is an outage for the revision rules.
func (ws *wsSession) fetchProjection(ctx context.Context) ([]*nostr.Event, error) {
	if ws.a.opts.Offline {
		return nil, errors.New("--offline")
	}
	if ws.infoErr != nil {
		return nil, ws.infoErr
	}
	f := nostr.Filter{Kinds: []int{sections.KindProjection}, Tags: nostr.TagMap{"d": {ws.owner}}}
	res := ws.pool.Fetch(ctx, []string{ws.relay}, f)
	if !res.Complete {
		r := res.Relays[0]
		return nil, fmt.Errorf("%s did not answer (%s)", ws.relay, relayOutcome(r.Status, r.Reason))
	}
	return res.Events, nil
}

// sync applies the client rules (verify, revision, refetch, stale cache).
func (ws *wsSession) sync(ctx context.Context) (*sections.SyncResult, error) {
	in := sections.SyncInput{Owner: ws.owner, RelaySelf: ws.self, CacheKey: ws.cacheKey(), Fetch: ws.fetchProjection}
	if ws.cache != nil {
		in.Store = ws.cache
	}
	res, err := sections.Sync(ctx, in)
	if err == nil {
		return res, nil
	}
	if errors.Is(err, sections.ErrNoProjection) {
		// The owner needs no grant: only the import can be missing.
		cmds := []string{"roster workspace import --relay " + ws.relay + "   # you, the owner, once"}
		if ws.me != ws.owner {
			cmds = []string{"roster workspace import --relay " + ws.relay + "   # run by " + graph.Npub(ws.owner) + ", once",
				"roster workspace grant " + graph.Npub(ws.me) + " --role viewer --relay " + ws.relay + "   # run by " + graph.Npub(ws.owner) + ", to let you read"}
		}
		return nil, &exitError{Code: exitIncomplete, Kind: "no-projection", Err: fmt.Errorf("%s: %w", ws.relay, err),
			Details:  map[string]any{"owner": graph.Npub(ws.owner), "relay": ws.relay, "relay_self": ws.self},
			Commands: cmds}
	}
	return nil, &exitError{Code: exitIncomplete, Kind: "incomplete", Err: err,
		Details:  map[string]any{"owner": graph.Npub(ws.owner), "relay": ws.relay},
		Commands: []string{"roster workspace show --owner " + graph.Npub(ws.owner) + " --relay " + ws.relay}}
}

// current is a synced and opened workspace.
type wsCurrent struct {
	sync *sections.SyncResult
	w    *sections.Workspace
	role sections.Role // the signer's role ("" when none)
}

// load syncs and decrypts. Decryption failure is never retried with a
// weaker AAD: it is reported.
func (ws *wsSession) load(ctx context.Context) (*wsCurrent, error) {
	res, err := ws.sync(ctx)
	if err != nil {
		return nil, err
	}
	w, err := sections.Open(ctx, ws.s, ws.community, res.Verified)
	if err != nil {
		return nil, &exitError{Code: exitFailure, Kind: "decrypt", Err: fmt.Errorf("the workspace projection verified but cannot be opened with your key: %w", err),
			Details: map[string]any{"owner": graph.Npub(ws.owner), "community": ws.community}}
	}
	return &wsCurrent{sync: res, w: w, role: w.Readers[ws.me]}, nil
}
