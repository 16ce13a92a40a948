package pcrelay

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/workspace/projects"
)

// deletion turns an owner's NIP-09 deletion of a Project identity (by `a`
// address, or by `e` id of the current identity) into a tombstone at the next
// revision. The deletion request itself is always passed on to storage, so
// deletions of other events work as without this authority.
func (a *Authority) deletion(env devrelay.Env, evt *nostr.Event) ([]*nostr.Event, error) {
	out := []*nostr.Event{evt}
	type hit struct {
		k string
		r *row
	}
	var hits []hit
	deletedAt := map[string]nostr.Timestamp{} // row key -> newest address deletion
	for _, t := range evt.Tags {
		if len(t) < 2 {
			continue
		}
		switch t[0] {
		case "a":
			c, err := projects.ParseCoordinate(t[1])
			if err != nil || c.Owner != evt.PubKey {
				continue
			}
			k := key(env, c)
			r := a.rows[k]
			if r == nil {
				continue
			}
			// NIP-09: an address deletion covers versions up to its created_at.
			if evt.CreatedAt > r.deletedAt {
				deletedAt[k] = evt.CreatedAt
			}
			if !r.deleted && r.identity.CreatedAt <= evt.CreatedAt {
				hits = append(hits, hit{k, r})
			}
		case "e":
			for k, r := range a.rows {
				if r.coord.Owner == evt.PubKey && !r.deleted && r.identity.ID == t[1] && key(env, r.coord) == k {
					hits = append(hits, hit{k, r})
				}
			}
		}
	}
	// Build every new row first and commit them together, so a failure
	// (revision overflow, no representable created_at) changes nothing.
	next := map[string]*row{}
	for k, at := range deletedAt {
		r := *a.rows[k]
		r.deletedAt = at
		next[k] = &r
	}
	done := map[string]bool{}
	for _, h := range hits {
		if done[h.k] {
			continue
		}
		done[h.k] = true
		r := next[h.k]
		if r == nil {
			c := *h.r
			r = &c
			next[h.k] = r
		}
		if err := r.advance(); err != nil {
			return nil, err
		}
		r.revision++
		r.deleted = true
		r.related = nil
		r.change = evt.ID
		proj, err := a.project(env, r)
		if err != nil {
			return nil, err
		}
		out = append(out, proj)
	}
	for k, r := range next {
		a.rows[k] = r
	}
	return out, nil
}
