package pcrelay

import (
	"sort"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
)

// Reconcile re-signs the current projection of every project in env's
// community without advancing any revision: the repair path of nip-pc.md
// "Publication and Reconciliation" for a projection whose publication or
// fan-out failed. Each new projection gets created_at max(now, previous + 1),
// so it replaces the last one with a new event id and the same `rev`.
// The caller stores and broadcasts the returned events.
func (a *Authority) Reconcile(env devrelay.Env) ([]*nostr.Event, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var keys []string
	prefix := env.Community + "\x00"
	for k := range a.rows {
		if len(k) > len(prefix) && k[:len(prefix)] == prefix {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []*nostr.Event
	for _, k := range keys {
		next := *a.rows[k]
		proj, err := a.project(env, &next)
		if err != nil {
			return out, err
		}
		a.rows[k] = &next
		out = append(out, proj)
	}
	return out, nil
}
