package pcrelay

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/workspace/projects"
)

// identity materializes an owner-signed kind 30621: revision 1 the first
// time, the next revision for a newer identity or a recreation after deletion.
// A duplicate or superseded identity does not advance the revision.
func (a *Authority) identity(env devrelay.Env, evt *nostr.Event) ([]*nostr.Event, error) {
	id, err := projects.ParseIdentity(evt)
	if err != nil {
		return nil, fmt.Errorf("invalid: %v", err)
	}
	k := key(env, id.Coordinate)
	r := a.rows[k]
	if r == nil {
		r = &row{coord: id.Coordinate}
	} else {
		if r.identity != nil && r.identity.ID == evt.ID {
			return nil, nil // exact duplicate: acknowledged, nothing changes
		}
		if r.identity != nil && !graph.Newer(evt, r.identity) {
			return nil, fmt.Errorf("duplicate: a newer identity for %s is already current", id.Coordinate)
		}
		if evt.CreatedAt <= r.deletedAt {
			return nil, fmt.Errorf("blocked: %s was deleted at %d; publish an identity created after that to recreate it", id.Coordinate, r.deletedAt)
		}
		if err := r.advance(); err != nil {
			return nil, err
		}
	}
	// Related channels in the identity are unioned with the relational
	// membership (none after deletion), the new home channel excluded.
	base := r.related
	if r.deleted {
		base = nil
	}
	related := union(base, id.Document.RelatedChannels, id.Document.HomeChannel)
	if len(related) > projects.MaxRelatedChannels {
		return nil, fmt.Errorf("invalid: %s would have %d related channels, more than %d", id.Coordinate, len(related), projects.MaxRelatedChannels)
	}
	next := *r
	next.revision++
	next.deleted = false
	next.identity = evt
	next.doc = id.Document
	next.related = related
	next.change = evt.ID
	proj, err := a.project(env, &next)
	if err != nil {
		return nil, err
	}
	a.rows[k] = &next
	return []*nostr.Event{evt, proj}, nil
}

func union(a, b []string, exclude string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range append(append([]string(nil), a...), b...) {
		if s != exclude && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return projects.Patch{Add: out}.Apply(nil)
}
