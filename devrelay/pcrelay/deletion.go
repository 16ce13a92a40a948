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
				r.deletedAt = evt.CreatedAt
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
	done := map[string]bool{}
	for _, h := range hits {
		if done[h.k] {
			continue
		}
		done[h.k] = true
		if err := h.r.advance(); err != nil {
			return nil, err
		}
		next := *h.r
		next.revision++
		next.deleted = true
		next.related = nil
		next.change = evt.ID
		proj, err := a.project(env, &next)
		if err != nil {
			return nil, err
		}
		a.rows[h.k] = &next
		out = append(out, proj)
	}
	return out, nil
}
