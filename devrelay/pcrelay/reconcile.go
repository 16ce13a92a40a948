package pcrelay

import (
	"context"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
)

// nip-pc.md "Publication and Reconciliation": "The relational row remains
// authoritative if projection publication or fan-out fails. The relay MUST
// retain a durable retry or reconciliation path [...] Reconciliation
// republishes the current row without advancing its revision."
//
// devrelay commits a row and signs its projection in one step, and the core
// stores the projection right after. Should the core fail to store it (or a
// relay-key NIP-09 deletion remove it), republishMissing repairs it on the
// next event the authority ingests; Reconcile repairs every row on demand
// (relay-key rotation, tests).

// Reconcile re-signs the current projection of every project in env's
// community without advancing any revision. Each new projection gets
// created_at max(now, previous + 1), so it replaces the last one with a new
// event id and the same `rev`. The caller stores and broadcasts the
// returned events.
func (a *Authority) Reconcile(env devrelay.Env) ([]*nostr.Event, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.republish(env, func(*row) bool { return true })
}

// republishMissing re-signs, under a.mu, the projection of every row in
// env's community whose last projection the store does not hold and that
// was not just emitted.
func (a *Authority) republishMissing(env devrelay.Env, emitted []*nostr.Event) []*nostr.Event {
	if env.Query == nil {
		return nil
	}
	just := map[string]bool{}
	for _, e := range emitted {
		just[e.ID] = true
	}
	out, _ := a.republish(env, func(r *row) bool {
		if r.published == "" || just[r.published] {
			return false
		}
		return len(env.Query(context.Background(), nostr.Filter{IDs: []string{r.published}})) == 0
	})
	return out
}

// republish re-signs the rows of env's community that need it, in key order.
func (a *Authority) republish(env devrelay.Env, need func(*row) bool) ([]*nostr.Event, error) {
	var keys []string
	prefix := env.Community + "\x00"
	for k := range a.rows {
		if strings.HasPrefix(k, prefix) && need(a.rows[k]) {
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
