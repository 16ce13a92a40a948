package statepub

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
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
	CutWindow = relaypool.CutWindow
	cutRounds = relaypool.CutRounds
)

// discover is the publication's discovery: complete evidence, dated now.
func (p Pipeline) discover(ctx context.Context) (*discovery.View, error) {
	return p.Read.Load(ctx, discovery.Complete, p.Now().Unix())
}

// again asks prev's relays again, in one round (discovery.Query.Again).
func (p Pipeline) again(ctx context.Context, prev *discovery.View) (*discovery.View, error) {
	return p.Read.Again(ctx, prev, p.Now().Unix())
}

// recheck is the membership pipeline's recheck for a state publication
// (maintainers.md: "recheck the event IDs used for every affected
// announcement and state view, and fail if any fetched predecessor or
// candidate changes before publication"): the relays are read again, the
// answers made a consistent cut, and every announcement, state event and
// deletion the plan used must be unchanged. It returns the cut; left is
// how many re-asks the publication has left (freshCut spends the rest).
func (p Pipeline) recheck(ctx context.Context, out *Outcome, left *int) (*relaypool.FetchResult, error) {
	if p.BeforeRecheck != nil {
		p.BeforeRecheck()
	}
	fresh, err := p.again(ctx, out.View)
	if err != nil {
		return nil, err
	}
	res := fresh.Fetch
	if res == nil {
		// No relay answer to compare with the plan (a read from the cache
		// alone): the recheck did not happen, so nothing is signed.
		return nil, &Failure{Failure: failure.Failure{Code: CodeInconsistentRead, Class: Incomplete, Next: []suggest.Command{publishCmd(out.Plan.Forced).Because("retry once the relays answer; nothing was published")}}, Outcome: out,
			Lines: []string{"the recheck before signing got no answer from the relays to compare with the preview, so nothing was published: rerun the command"}}
	}
	res, err = p.unchangedCut(ctx, out, res, relaypool.LatestAnswer(res), left)
	if err != nil {
		return nil, err
	}
	out.Rechecked = true
	return res, nil
}

// freshCut asks again the relays of cut whose answer is more than
// CutWindow old by now (a signer that took its time, such as a bunker; the
// journal's sync on a busy disk) and compares their answers with the plan
// as the recheck did, so that the window in which another state can land
// unseen, and be replaced by ours on a relay that keeps one version per
// address, stays CutWindow (membership.CutWindow). It runs right before
// the send; a failure is nothing sent. It returns the cut, fresh.
func (p Pipeline) freshCut(ctx context.Context, out *Outcome, cut *relaypool.FetchResult, left *int) (*relaypool.FetchResult, error) {
	if cut == nil || len(relaypool.StaleRelays(cut, time.Now())) == 0 {
		return cut, nil
	}
	return p.unchangedCut(ctx, out, cut, time.Now(), left)
}

// unchangedCut makes res (whose slowest answer is at ref) a consistent cut
// and fails unless every announcement, state event and deletion the plan
// used is unchanged in it. Relay latency is measured on the real clock,
// like relaypool's timeouts; Now only dates events.
func (p Pipeline) unchangedCut(ctx context.Context, out *Outcome, res *relaypool.FetchResult, ref time.Time, left *int) (*relaypool.FetchResult, error) {
	res, err := relaypool.Cut(ctx, res, ref, left, p.Relays.Reask)
	if ce, ok := err.(*relaypool.CutError); ok {
		return nil, &Failure{Failure: failure.Failure{Code: CodeInconsistentRead, Class: Incomplete, Next: []suggest.Command{publishCmd(out.Plan.Forced).Because("retry; nothing was published")}}, Outcome: out, Lines: []string{ce.Error() + "; rerun the command"}}
	}
	if err != nil {
		return nil, err
	}
	id := out.View.Coordinate().Identifier
	changed := preflight.FingerprintChanges(preflight.Fingerprint(out.View.Events), preflight.Fingerprint(discovery.InScope(res.Events, id)))
	if len(changed) > 0 {
		words := preflight.DescribeFingerprintKeys(changed)
		return nil, &Failure{Failure: failure.Failure{Code: CodeConcurrentChange, Class: Refused, Next: []suggest.Command{suggest.Roster("repo", "state").Because("compare this checkout with the state now in effect"),
			publishCmd(out.Plan.Forced).Because("once this checkout holds what you mean to publish")}}, Outcome: out, Changed: words, Lines: []string{"the repository changed after the preview (" + strings.Join(words, ", ") + "): rerun the command to compare this checkout with the current state"}}
	}
	return res, nil
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
