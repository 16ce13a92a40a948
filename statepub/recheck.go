package statepub

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// Codes of the recheck and the confirmation after publishing.
const (
	// CodeConcurrentChange: an announcement, state or deletion the plan
	// used changed before signing; nothing was published (exit 3).
	CodeConcurrentChange = "concurrent-change"
	// CodeInconsistentRead: the recheck could not take a consistent cut of
	// the relays; nothing was published (exit 4).
	CodeInconsistentRead = "inconsistent-read"
	// CodeSuperseded: published, but the repository resolves another,
	// newer state event (exit 6, naming it).
	CodeSuperseded = "superseded"
)

// CutWindow and cutRounds are the membership pipeline's consistent cut
// (membership.CutWindow): every relay whose answer to the recheck arrived
// more than CutWindow before the slowest one's is asked again, at most
// cutRounds times, so the answers are one state of the repository.
const (
	CutWindow = 250 * time.Millisecond
	cutRounds = 3
)

// again is Again, or Discover without it.
func (p Pipeline) again(ctx context.Context, prev *discovery.View) (*discovery.View, error) {
	if p.Again == nil || prev.Fetch == nil {
		return p.Discover(ctx)
	}
	return p.Again(ctx, prev)
}

// recheck is the membership pipeline's recheck for a state publication
// (maintainers.md: "recheck the event IDs used for every affected
// announcement and state view, and fail if any fetched predecessor or
// candidate changes before publication"): the relays are read again, the
// answers made a consistent cut, and every announcement, state event and
// deletion the plan used must be unchanged. It returns the cut.
func (p Pipeline) recheck(ctx context.Context, out *Outcome) (*relaypool.FetchResult, error) {
	if p.BeforeRecheck != nil {
		p.BeforeRecheck()
	}
	fresh, err := p.again(ctx, out.View)
	if err != nil {
		return nil, err
	}
	res := fresh.Fetch
	if res == nil {
		return nil, nil
	}
	left := cutRounds
	ref := latestAnswer(res)
	for {
		stale := staleRelays(res, ref)
		if len(stale) == 0 {
			break
		}
		if left <= 0 || p.Reask == nil {
			return nil, &Failure{Code: CodeInconsistentRead, Class: Incomplete, Outcome: out,
				Lines: []string{fmt.Sprintf("the relays' answers to the recheck stayed more than %s apart after %d re-asks (%s): they are not one state of the repository; rerun the command",
					CutWindow, cutRounds, strings.Join(stale, ", "))},
				Commands: []suggest.Command{publishCmd(out.Plan.Forced).Because("retry; nothing was published")}}
		}
		left--
		res = p.Reask(ctx, res, stale)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !res.Complete {
			var failed []string
			for _, r := range res.Relays {
				if r.Status != relaypool.StatusOK {
					failed = append(failed, fmt.Sprintf("%s (%s: %s)", r.URL, r.Status, r.Reason))
				}
			}
			return nil, &Failure{Code: CodeInconsistentRead, Class: Incomplete, Outcome: out,
				Lines:    []string{"asked again for a consistent recheck, not every relay answered: " + strings.Join(failed, ", ")},
				Commands: []suggest.Command{publishCmd(out.Plan.Forced).Because("retry; nothing was published")}}
		}
		ref = latestAnswer(res)
	}
	id := out.View.Coordinate().Identifier
	changed := preflight.FingerprintChanges(preflight.Fingerprint(out.View.Events), preflight.Fingerprint(discovery.InScope(res.Events, id)))
	if len(changed) > 0 {
		words := describeKeys(changed)
		return nil, &Failure{Code: CodeConcurrentChange, Class: Refused, Outcome: out, Changed: words,
			Lines: []string{"the repository changed after the preview (" + strings.Join(words, ", ") + "): rerun the command to compare this checkout with the current state"},
			Commands: []suggest.Command{suggest.Roster("repo", "state").Because("compare this checkout with the state now in effect"),
				publishCmd(out.Plan.Forced).Because("once this checkout holds what you mean to publish")}}
	}
	return res, nil
}

// staleRelays are the relays of res whose answer arrived more than
// CutWindow before ref.
func staleRelays(res *relaypool.FetchResult, ref time.Time) []string {
	var out []string
	for _, r := range res.Relays {
		if r.Answered.Before(ref.Add(-CutWindow)) {
			out = append(out, r.URL)
		}
	}
	return out
}

// latestAnswer is when the slowest relay of res answered.
func latestAnswer(res *relaypool.FetchResult) time.Time {
	var t time.Time
	for _, r := range res.Relays {
		if r.Answered.After(t) {
			t = r.Answered
		}
	}
	return t
}

// describeKeys renders fingerprint keys ("30617:<hex>") as people say them.
func describeKeys(keys []string) []string {
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		kind, rest, _ := strings.Cut(k, ":")
		switch kind {
		case "30617":
			out = append(out, "announcement of "+graph.Npub(rest))
		case "30618":
			out = append(out, "repository state of "+graph.Npub(rest))
		default:
			out = append(out, "deletion "+rest)
		}
	}
	return out
}

// confirm is the confirmation after publishing: the repository read again
// must resolve the published event. A newer state event resolving instead
// is superseded (exit 6, naming the winner); a candidate state event that
// arrived after the recheck and is now hidden by ours is a concurrent
// publication this one displaced, said so (exit 6) so that it is not lost
// silently.
func confirm(evt *nostr.Event, cut *relaypool.FetchResult, after *discovery.View) (code string, problems []string) {
	switch {
	case after.StateEvent == nil:
		return CodeUnverified, []string{"the repository resolves no state after publishing"}
	case after.StateEvent.ID != evt.ID && graph.Newer(after.StateEvent, evt):
		return CodeSuperseded, []string{fmt.Sprintf("the repository resolves the newer state %s by %s, not the published %s: another publication won",
			after.StateEvent.ID, graph.Npub(after.StateEvent.PubKey), evt.ID)}
	case after.StateEvent.ID != evt.ID:
		return CodeUnverified, []string{fmt.Sprintf("the repository resolves state %s by %s, not the published %s",
			after.StateEvent.ID, graph.Npub(after.StateEvent.PubKey), evt.ID)}
	}
	if cut == nil {
		return "", nil
	}
	seen := map[string]bool{}
	for _, e := range cut.Events {
		seen[e.ID] = true
	}
	for _, e := range after.Events {
		if e.Kind != graph.KindState || e.ID == evt.ID || seen[e.ID] || !after.Resolution.Confirmed(e.PubKey) {
			continue
		}
		problems = append(problems, fmt.Sprintf("the state %s by %s arrived while this one was published and is no longer resolved: compare it with `roster repo state` before publishing again",
			e.ID, graph.Npub(e.PubKey)))
	}
	if len(problems) > 0 {
		return CodeUnverified, problems
	}
	return "", nil
}
