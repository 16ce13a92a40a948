package swrelay

import (
	"context"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/workspace/sections"
)

// LookupID answers a query by event id for reader: nip-sw.md applies read
// authorization to every delivery surface, "because an attacker may query a
// known event ID".
//
// The stored projection carries the owner's envelope, so only the owner
// receives it under its own id. Each grantee receives a copy re-signed with
// their own envelope (View). A copy keeps the stored created_at and tags
// and its content follows from the state, so its id is the same on every
// delivery: that id is the one a grantee knows and may look up. LookupID
// returns the event with exactly the requested id that reader may see, or
// nil. The stored id finds nothing for a grantee: an answer with another id
// would not match the filter (NIP-01), and the stored body is not theirs.
//
// The devrelay core calls it (devrelay.IDLookup) for every REQ with ids.
func (a *Authority) LookupID(env devrelay.Env, reader, id string) *nostr.Event {
	if reader == "" || env.Query == nil {
		return nil
	}
	stored := env.Query(context.Background(), nostr.Filter{Kinds: []int{sections.KindProjection}, Authors: []string{env.Self}})
	for _, evt := range stored {
		if isProjectState(evt) {
			continue
		}
		if v := a.View(env, reader, evt); v != nil && v.ID == id {
			return v
		}
	}
	return nil
}
