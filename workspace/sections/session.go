package sections

import (
	"context"
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// Store is the local cache a session reads and keeps verified projections
// and the relay's NIP-11 document in (the caller adapts its cache).
type Store = pipeline.Store

// PendingImports keeps the one signed import command of (community, owner)
// until its migration marker reads back (workspace/pending fits). Pending
// returns nil, nil when none is kept.
type PendingImports interface {
	Pending(community, owner string) (*nostr.Event, error)
	Keep(community, owner string, evt *nostr.Event) error
	Drop(community, owner string) error
}

// Session is one workspace command's world: the signer (who also
// decrypts), the one relay that is the workspace's authority and its NIP-11
// self, the canonical community, the owner, and the local cache.
type Session struct {
	Relays  pipeline.Relays
	Publish pipeline.Publish
	Signer  signer.Signer
	Now     func() nostr.Timestamp
	// Store is nil when there is no cache.
	Store Store
	// Offline reads only the cache.
	Offline bool
	// Pending keeps the signed import between attempts (nil: a retry signs
	// a new one).
	Pending PendingImports
	// Journal keeps every other command from before it is sent until the
	// read-back shows it (nil: none is kept); Rerun is the command that
	// made the write, as words after "roster", kept with it.
	Journal *journal.Dir
	Rerun   []string

	Me        string // the signer's pubkey
	Owner     string // the workspace owner
	Relay     string
	Community string // CanonicalCommunity(Relay)

	// Self is the relay's NIP-11 self (live, else cached), set by Connect.
	Self string
	// infoErr is why the relay's NIP-11 document could not be read live.
	infoErr error
}

// Connect reads the relay's NIP-11 `self` live (and caches the document);
// offline or when the relay is down it falls back to the cached document so
// a cached projection can still be verified and shown as stale.
func (s *Session) Connect(ctx context.Context) {
	s.Self, s.infoErr = s.relaySelf(ctx)
}

func (s *Session) relaySelf(ctx context.Context) (string, error) {
	if !s.Offline {
		info, err := s.Relays.RelayInfo(ctx, s.Relay)
		if err == nil {
			if s.Store != nil && len(info.Raw) > 0 {
				_ = s.Store.PutRelayInfo(s.Relay, info.Raw)
			}
			return info.Self, nil
		}
		if s.Store != nil {
			if self, ok := s.Store.CachedSelf(s.Relay); ok {
				return self, err
			}
		}
		return "", err
	}
	if s.Store != nil {
		if self, ok := s.Store.CachedSelf(s.Relay); ok {
			return self, nil
		}
	}
	return "", errors.New("--offline and no cached relay information")
}

// CacheKey names a workspace projection in the cache: envelopes differ per
// reader, so one entry per reader.
func CacheKey(community, owner, reader string) string {
	return "nip-sw/" + community + "/" + owner + "/" + reader
}

// fetchProjection asks the relay for the owner's projection. Any relay
// answer short of EOSE is an outage for the revision rules.
func (s *Session) fetchProjection(ctx context.Context) ([]*nostr.Event, error) {
	if s.Offline {
		return nil, errors.New("--offline")
	}
	if s.infoErr != nil {
		return nil, s.infoErr
	}
	res := s.Relays.Fetch(ctx, []string{s.Relay}, s.ProjectionFilters()...)
	if !res.Complete {
		r := res.Relays[0]
		return nil, fmt.Errorf("%s did not answer (%s)", s.Relay, pipeline.Outcome(r.Status, r.Reason))
	}
	return res.Events, nil
}

// ownerNpub and meNpub name people in errors and suggestions.
func (s *Session) ownerNpub() string { return graph.Npub(s.Owner) }

// show is `workspace show` for this owner on this relay.
func (s *Session) show() suggest.Command {
	return suggest.Roster("workspace", "show", "--owner", s.ownerNpub(), "--relay", s.Relay)
}

// Sync applies the client rules (verify, revision, refetch, stale cache)
// for this session. A relay that shows no projection is a "no-projection"
// *pipeline.Error naming who must run what.
func (s *Session) Sync(ctx context.Context) (*SyncResult, error) {
	in := SyncInput{Owner: s.Owner, RelaySelf: s.Self, CacheKey: CacheKey(s.Community, s.Owner, s.Me), Reader: s.Me, Fetch: s.fetchProjection}
	if s.Store != nil {
		in.Store = s.Store
	}
	res, err := Sync(ctx, in)
	if err == nil {
		return res, nil
	}
	if errors.Is(err, ErrNoProjection) {
		// The owner needs no grant: only the workspace can be missing.
		// create starts it (and, when a legacy channel-sections event
		// exists, refuses and points to import, which migrates it).
		create := suggest.Roster("workspace", "create", "--relay", s.Relay)
		next := []suggest.Command{create.Because("start your workspace (create says when you have a legacy one to import instead)")}
		msg := fmt.Sprintf("%s: %v", s.Relay, err)
		details := map[string]any{"owner": s.ownerNpub(), "relay": s.Relay, "relay_self": s.Self}
		if s.Me != s.Owner {
			// Someone else's workspace: only its owner can help, by
			// granting this reader a role (once they have a workspace).
			owner := graph.Npub(s.Owner)
			grant := suggest.Roster("workspace", "grant", graph.Npub(s.Me), "--role", string(RoleViewer), "--relay", s.Relay).ByPerson(owner)
			msg = fmt.Sprintf("%s: %v: the owner has no workspace there, or has not granted you a role in it", s.Relay, err)
			next = []suggest.Command{create.ByPerson(owner).Because("if they have no workspace there yet"),
				grant.Because("to let you read; they choose the role")}
			if rev, ok := s.readBefore(); ok {
				// The workspace exists and was shown to this reader: only
				// a new grant by the owner can help, never an import.
				msg = fmt.Sprintf("%s no longer shows you the workspace of %s, which you last read at revision %d: your grant was revoked (or the relay withholds it). Only the owner can grant you access again; ask them to run the command below", s.Relay, owner, rev)
				details["cached_revision"] = rev
				details["revoked"] = true
				next = []suggest.Command{grant.Because("ask the owner to run it; they choose the role")}
			}
		}
		return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "no-projection", Err: err,
			Msg: msg, Details: details, Next: next}
	}
	return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "incomplete", Err: err, Msg: err.Error(),
		Details: map[string]any{"owner": s.ownerNpub(), "relay": s.Relay},
		Next:    []suggest.Command{s.show()}}
}

// readBefore reports whether this reader's cache holds a projection of the
// workspace verified against the relay's self: the relay showed it to them
// once, so a relay that now shows nothing has revoked (or withholds) it.
func (s *Session) readBefore() (int64, bool) {
	if s.Store == nil {
		return 0, false
	}
	evt, err := s.Store.Projection(CacheKey(s.Community, s.Owner, s.Me))
	if err != nil || evt == nil {
		return 0, false
	}
	v, err := VerifyProjectionFor(evt, s.Self, s.Owner, s.Me)
	if err != nil {
		return 0, false
	}
	return v.Projection.Revision, true
}

// Current is a synced and opened workspace.
type Current struct {
	Sync *SyncResult
	W    *Workspace
	Role Role // the signer's role ("" when none)
}

// Load syncs and decrypts. Decryption failure is never retried with a
// weaker AAD: it is reported.
func (s *Session) Load(ctx context.Context) (*Current, error) {
	res, err := s.Sync(ctx)
	if err != nil {
		return nil, err
	}
	w, err := Open(ctx, s.Signer, s.Community, res.Verified)
	if err != nil {
		return nil, &pipeline.Error{Class: pipeline.Failure, Code: "decrypt", Err: err,
			Msg:     fmt.Sprintf("the workspace projection verified but cannot be opened with your key: %v", err),
			Details: map[string]any{"owner": s.ownerNpub(), "community": s.Community}}
	}
	return &Current{Sync: res, W: w, Role: w.Readers[s.Me]}, nil
}
