package discovery

import (
	"context"
	"errors"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/relaypool"
)

// Query is one repository read as a value: where to ask (Source: relays,
// pool, cache, profiles, progress), which coordinate (Selection), in which
// checkout (Checkout, nil outside one) and as whom (Viewer). A write
// pipeline is given one and reads with it itself, as often as it needs:
// the preview's discovery, the recheck and the re-read after publishing.
type Query struct {
	Source    Source
	Selection gitstate.Selection
	Checkout  *gitstate.Checkout
	Viewer    string
}

// Write is q for a write: complete evidence from everyone's relays
// (Source.Write), a cache that can keep what it publishes
// (Source.Publishes), and reach added to Source.Reach (a change's subject
// and new lead).
func (q Query) Write(reach ...string) Query {
	q.Source.Write, q.Source.Publishes = true, true
	for _, pk := range reach {
		if pk != "" {
			q.Source.Reach = append(append([]string(nil), q.Source.Reach...), pk)
		}
	}
	return q
}

// Load runs the read pipeline (Load) with need at now.
func (q Query) Load(ctx context.Context, need Evidence, now int64) (*View, error) {
	return Load(ctx, q.Source, q.Selection, q.Checkout, need, q.Viewer, now)
}

// Again asks prev's relays again in one round carrying every filter its
// rounds asked, and also (Again); a read that prev made from the cache
// alone (no relay answer to repeat) is read again with Load. The view
// comes back with the error whenever relays answered, a stale answer's
// too, so that a re-read can still say what each relay returned.
func (q Query) Again(ctx context.Context, prev *View, now int64, also ...nostr.Filter) (*View, error) {
	if prev.Offline || prev.Fetch == nil {
		return q.Load(ctx, Complete, now)
	}
	src := q.Source
	src.Relays = prev.Relays
	v, err := Again(ctx, src, prev, now, also...)
	var stale *Stale
	if v == nil && errors.As(err, &stale) {
		v = stale.View
	}
	return v, err
}

// Reader is what a write pipeline reads the repository with: a Query, or
// a test's own world that answers as one.
type Reader interface {
	Load(ctx context.Context, need Evidence, now int64) (*View, error)
	Again(ctx context.Context, prev *View, now int64, also ...nostr.Filter) (*View, error)
}

var _ Reader = Query{}

// Why is what a discovery could not do (err) in one line, naming the
// relays that did not answer an incomplete read and why: how a write
// pipeline quotes a failed re-read among its problems.
func Why(err error) string {
	var inc *Incomplete
	if !errors.As(err, &inc) || inc.View == nil || inc.View.Fetch == nil {
		return err.Error()
	}
	var failed []string
	for _, r := range inc.View.Fetch.Relays {
		if r.Status == relaypool.StatusOK {
			continue
		}
		what := r.URL + " (" + r.Status
		if r.Reason != "" {
			what += ": " + r.Reason
		}
		failed = append(failed, what+")")
	}
	if len(failed) == 0 {
		return err.Error()
	}
	return err.Error() + ": no answer from " + strings.Join(failed, ", ")
}
