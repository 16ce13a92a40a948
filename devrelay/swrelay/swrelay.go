// Package swrelay is the reference relay-side authority of NIP-SW for
// devrelay: NIP-42-authenticated command ingest (kinds 9050–9054),
// authorization by role, transactional application to normalized state,
// durable action rows (an exact retry is a no-op, a reused action id with
// different bytes is rejected), revision and layout revision, and
// reader-specific relay-signed kind 30623 projections delivered only to the
// owner and active grantees, with immediate eviction of a revoked reader.
package swrelay

import (
	"context"
	"fmt"
	"sync"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/workspace/sections"
)

// Options configure the authority.
type Options struct {
	// Channels reports whether channel exists, undeleted, in community. The
	// spec requires imported and moved channels to; nil treats every
	// well-formed channel id as existing (the dev relay has no channel table).
	Channels func(community, channel string) bool
	// LeaveProjectionKind stops the authority from claiming kind 30623
	// (client submissions of it are then not rejected here). devrelay lets
	// one authority claim a kind; NIP-PC's authority can claim it instead.
	LeaveProjectionKind bool
}

// Authority is the NIP-SW state machine. Create it with New.
type Authority struct {
	opts Options
	// mu serializes every command and every view: one lock for all
	// workspaces is a stronger form of per-workspace transactions.
	mu         sync.Mutex
	workspaces map[wsKey]*workspace
}

// wsKey is the workspace coordinate: server-resolved community and owner.
type wsKey struct{ community, owner string }

// New returns an authority with no workspaces.
func New(opts Options) *Authority {
	return &Authority{opts: opts, workspaces: map[wsKey]*workspace{}}
}

var _ devrelay.Authority = (*Authority)(nil)

// Kinds are the five command kinds and, unless left to NIP-PC, the
// relay-only projection kind (to reject client submissions of it).
func (a *Authority) Kinds() []int {
	k := append([]int(nil), sections.CommandKinds...)
	if !a.opts.LeaveProjectionKind {
		k = append(k, sections.KindProjection)
	}
	return k
}

// Ingest authenticates, parses, authorizes and applies one command, and
// returns the new relay-signed projection to store and fan out.
func (a *Authority) Ingest(_ context.Context, env devrelay.Env, authed string, evt *nostr.Event) ([]*nostr.Event, error) {
	if evt.Kind == sections.KindProjection {
		return nil, fmt.Errorf("restricted: kind %d projections are signed by the relay only; submit a NIP-SW command (9050-9054) instead", sections.KindProjection)
	}
	if authed == "" {
		return nil, fmt.Errorf("auth-required: NIP-SW commands need an authenticated connection (NIP-42)")
	}
	if authed != evt.PubKey {
		return nil, fmt.Errorf("restricted: the command is signed by %s but the connection is authenticated as %s; actors sign as themselves", evt.PubKey, authed)
	}
	if ok, err := evt.CheckSignature(); !ok || err != nil || !evt.CheckID() {
		return nil, fmt.Errorf("invalid: bad event id or signature")
	}
	cmd, err := sections.ParseCommand(evt)
	if err != nil {
		return nil, fmt.Errorf("invalid: %w", err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	key := wsKey{community: env.Community, owner: cmd.Owner}
	ws := a.workspaces[key]
	if ws == nil {
		ws = newWorkspace(cmd.Owner)
	}
	if retry, err := ws.priorAction(cmd.ActionID, cmd.Hash); err != nil {
		return nil, fmt.Errorf("invalid: %w", err)
	} else if retry {
		// An exact retry returns its original revision: nothing changes,
		// the client reads the projection back.
		return nil, nil
	}
	action, _ := sections.ActionForKind(cmd.Kind)
	role := ws.role(cmd.Signer)
	if !sections.Allowed(role, action) {
		return nil, fmt.Errorf("restricted: %s", refusal(role, action))
	}
	next := ws.clone()
	ctx := applyCtx{community: env.Community, channels: a.opts.Channels}
	evictions, err := next.apply(ctx, cmd)
	if err != nil {
		return nil, fmt.Errorf("invalid: %w", err)
	}
	raw, err := evt.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("error: %w", err)
	}
	next.actions[cmd.ActionID] = actionRow{hash: cmd.Hash, revision: next.revision, eventID: evt.ID, event: raw}
	proj, err := next.projection(env)
	if err != nil {
		return nil, fmt.Errorf("error: %w", err)
	}
	// Commit: the normalized state and its action row change together.
	a.workspaces[key] = next
	for _, pk := range evictions {
		env.Evict(pk)
	}
	return []*nostr.Event{proj}, nil
}

// refusal explains a role violation.
func refusal(role sections.Role, action sections.Action) string {
	if role == "" {
		return fmt.Sprintf("you hold no grant in this workspace, so you may not %s", action)
	}
	return fmt.Sprintf("a %s may not %s in this workspace", role, action)
}

// View delivers a workspace projection only to the owner and active
// grantees, each with their own key envelope. Other events pass unchanged.
func (a *Authority) View(env devrelay.Env, reader string, evt *nostr.Event) *nostr.Event {
	if evt.Kind != sections.KindProjection || evt.PubKey != env.Self || isProjectState(evt) {
		return evt
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	ws := a.workspaces[wsKey{community: env.Community, owner: evt.Tags.GetD()}]
	if ws == nil || reader == "" || ws.role(reader) == "" {
		return nil
	}
	if reader == ws.owner {
		return evt // the stored projection carries the owner's envelope
	}
	out, err := ws.forReader(env, evt, reader)
	if err != nil {
		return nil
	}
	return out
}

// isProjectState recognizes NIP-PC project state sharing kind 30623.
func isProjectState(evt *nostr.Event) bool {
	for _, tag := range evt.Tags {
		if len(tag) > 0 && (tag[0] == "a" || tag[0] == "rev") {
			return true
		}
	}
	return false
}
