package membership

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// publish publishes the signed announcement to every relay asked, reads it
// back from each, confirms each keeps it as the coordinate's latest version,
// and re-resolves the repository to check it equals the preview (signAll
// signed it). Failures after the first relay accepted the event are
// Unverified or Superseded.
func (p Pipeline) publish(ctx context.Context, out *Outcome, evt *nostr.Event, answered func(relaypool.PublishReport), fresh func() error) error {
	if err := ctx.Err(); err != nil {
		return stopped(ctx, out, PhasePublishing, err)
	}
	p.phase(PhasePublishing)
	if err := fresh(); err != nil {
		return err
	}
	phase := PhasePublishing
	var accepted time.Time // when the relays had answered the EVENT
	opts := relaypool.DeliverOptions{Answered: answered, BeforeReadBack: func() {
		accepted = time.Now()
		phase = PhaseReadingBack
		p.phase(PhaseReadingBack)
		if p.AfterPublish != nil {
			p.AfterPublish()
		}
	}}
	// The read-back and the re-read are one request per relay: the event
	// by id and its address (Deliver's read-back) added to every filter of
	// the discovery (Again). What a relay returns by id and by address is
	// fresh even where it answers the repeated discovery filters from a
	// cache, and it is part of the re-read itself.
	var (
		after    *discovery.View
		afterErr error
		reread   bool
	)
	if out.Before.Fetch != nil {
		opts.ReadBack = func(ctx context.Context, _ []string, filters []nostr.Filter) *relaypool.FetchResult {
			reread = true
			after, afterErr = p.again(ctx, out.Before, filters...)
			if after == nil {
				return nil
			}
			return after.Fetch
		}
	}
	d := p.Relays.Deliver(ctx, out.Before.PublishRelays(), evt, opts)
	out.Delivery = d
	if ctx.Err() != nil {
		// Interrupted or past the deadline: report what was sent, verify
		// nothing more.
		return stoppedAfterSending(ctx, out, evt, phase)
	}
	if won := supersededOn(d); len(won) > 0 {
		if d.Accepted == 0 {
			// Nothing of ours was stored: another edit of the coordinate
			// came first, which is a change since the preview.
			return concurrentChange(out, []string{"30617:" + evt.PubKey})
		}
		out.Published = append(out.Published, evt.ID)
		return superseded(out, evt, won)
	}
	if d.Accepted == 0 {
		return &Failure{Failure: failure.Failure{Code: KindPublishFailed, Class: failure.Unexpected, Msg: fmt.Sprintf("no relay accepted the replacement announcement %s; nothing was published", evt.ID)}, Outcome: out}
	}
	out.Published = append(out.Published, evt.ID)
	problems := d.Problems()
	if len(problems) == 0 {
		p.phase(PhaseVerifying)
		if !reread {
			after, afterErr = p.again(ctx, out.Before)
		}
		if ctx.Err() != nil {
			return stoppedAfterSending(ctx, out, evt, PhaseVerifying)
		}
		if afterErr != nil {
			problems = append(problems, "re-reading the repository failed: "+discovery.Why(afterErr))
		} else {
			noteOlderServed(out, after.Fetch, evt)
			// Resolve with what the read-back returned by id too: a relay
			// may answer the repeated discovery filter from a cache.
			if d.ReadBack != nil {
				after = after.Including(d.ReadBack.Events)
			}
			out.After = after
			// The confirmation: every relay's latest version of the
			// coordinate is the one published.
			for i := range d.Relays {
				r := &d.Relays[i]
				if w := relaypool.LatestOn(after.Fetch, r.URL, evt); w != nil && w.ID != evt.ID && graph.Newer(w, evt) {
					r.SupersededBy = w.ID
				}
			}
			if won := supersededOn(d); len(won) > 0 {
				return superseded(out, evt, won)
			}
			problems = append(problems, DiffersFromPreview(out.Plan.After, after.Resolution)...)
			problems = append(problems, StateDiffersFromPreview(out.Plan.State.After, after)...)
		}
	}
	if len(problems) > 0 {
		return &Failure{Failure: failure.Failure{Code: KindUnverified, Class: failure.Unverified, Msg: fmt.Sprintf("published %s, but verification did not complete", evt.ID)}, Outcome: out, Problems: problems}
	}
	out.Verified = true
	if accepted.IsZero() {
		accepted = time.Now()
	}
	return p.confirmAfterCut(ctx, out, evt, accepted)
}

// supersededOn maps each relay that keeps a newer version of the address
// than the delivered event to that version's id.
func supersededOn(d *relaypool.Delivery) map[string]string {
	won := map[string]string{}
	for _, r := range d.Relays {
		if r.SupersededBy != "" {
			won[r.URL] = r.SupersededBy
		}
	}
	return won
}

// superseded is the published replacement losing to another version of the
// coordinate on some relay: the change may have been superseded by another
// edit (or lost an id tie to one dated the same second). Rerunning the
// intent previews the state that won and applies the change to it.
func superseded(out *Outcome, evt *nostr.Event, won map[string]string) *Failure {
	relays := make([]string, 0, len(won))
	for r := range won {
		relays = append(relays, r)
	}
	sort.Strings(relays)
	var where []string
	winners := map[string]bool{}
	for _, r := range relays {
		where = append(where, r+" keeps "+won[r])
		winners[won[r]] = true
	}
	ids := slices.Sorted(maps.Keys(winners))
	return &Failure{Failure: failure.Failure{Code: KindSuperseded, Class: failure.Unverified, Msg: fmt.Sprintf("published %s, but the change may have been superseded by another edit: the announcement that won is %s, not yours; "+
		"rerun the change to preview the announcement now in effect and apply it again", evt.ID, strings.Join(ids, ", ")), Next: []suggest.Command{
		out.Intent.Suggest().Because("preview the announcement that won and apply the change to it"),
		suggest.Roster("repo").Because("see what the relays now resolve"),
	}}, Outcome: out, Superseded: won, Problems: where}
}

// DiffersFromPreview compares the re-resolved repository with the preview's
// simulated one: lead, lead source, and every maintainer's and moderator's
// status.
func DiffersFromPreview(want, got *graph.Resolution) []string {
	var out []string
	if want.Lead != got.Lead || want.LeadSource != got.LeadSource {
		out = append(out, fmt.Sprintf("lead resolved to %s (%s), the preview said %s (%s)",
			dash(graph.Npub(got.Lead)), got.LeadSource, dash(graph.Npub(want.Lead)), want.LeadSource))
	}
	if !slices.Equal(want.Maintainers, got.Maintainers) {
		out = append(out, "the maintainers resolved differ from the preview")
	}
	if !slices.Equal(want.Moderators, got.Moderators) {
		out = append(out, "the moderators resolved differ from the preview")
	}
	return out
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
