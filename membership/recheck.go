package membership

import (
	"context"
	"time"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// CutWindow is how far apart in time the relays' answers of one recheck may
// be, and how old the oldest may be when the replacement is published.
//
// Relays offer no compare-and-swap: a recheck can only show that nothing
// changed as of the moment each relay answered. Answers taken at different
// times are not one state of the repository: a relay that answers first and
// then receives another edit of the same coordinate while a slower relay is
// still answering looks unchanged, and the replacement then silently
// overwrites that edit there (NIP-01 keeps one version per address). So the
// recheck is a consistent cut: every relay whose answer arrived more than
// CutWindow before the slowest one's is asked again, until all answers lie
// within CutWindow of each other (at most cutRounds re-asks), and after
// signing, right before each event is sent, the relays whose answer is by
// then more than CutWindow old (a remote signer, the journal's sync on a
// busy disk, the state event's delivery) are asked again. What remains is
// an edit published to a relay and verified within CutWindow before our
// replacement is sent; the confirmation after publishing (each relay's
// latest version of the coordinate must be ours) catches every edit that
// wins against ours, and the other command's own confirmation catches ours
// winning against it when ours arrives before it finished.
const CutWindow = relaypool.CutWindow

// cutRounds bounds the re-asks of one change (the recheck before signing
// and the one after a slow signer share them): relays whose latency swings
// by more than CutWindow on every request never give a consistent cut, and
// the change fails closed (exit 4) instead of publishing on a torn read.
const cutRounds = relaypool.CutRounds

// recheck makes res (the recheck's discovery, whose slowest answer is at
// ref) a consistent cut and compares it with the preview's fingerprint:
// any change is a concurrent change. It returns the cut. left is how many
// re-asks the change has left; each one spends one.
func (p Pipeline) recheck(ctx context.Context, out *Outcome, res *relaypool.FetchResult, ref time.Time, left *int) (*relaypool.FetchResult, error) {
	if res == nil {
		// No relay answer (a read from the cache alone): nothing to
		// compare with the preview, so the recheck did not happen and
		// nothing is signed.
		return nil, inconsistentRead(out, nil, "the recheck before signing got no answer from the relays to compare with the preview")
	}
	res, err := relaypool.Cut(ctx, res, ref, left, p.Relays.Reask)
	if ce, ok := err.(*relaypool.CutError); ok {
		return nil, inconsistentRead(out, ce.Relays, ce.Error())
	}
	if err != nil {
		return nil, err
	}
	events := discovery.InScope(res.Events, out.Before.Coordinate().Identifier)
	if changed := reachableChanges(out, events, preflight.FingerprintChanges(out.Plan.Fingerprint, preflight.Fingerprint(events))); len(changed) > 0 {
		return nil, concurrentChange(out, changed)
	}
	if changed := newRoleActions(out, res); len(changed) > 0 {
		return nil, roleActionsChanged(out, changed)
	}
	return res, nil
}

func inconsistentRead(out *Outcome, relays []string, why string) *Failure {
	return &Failure{Failure: failure.Failure{Code: KindInconsistentRead, Class: failure.Incomplete, Msg: why + "; nothing was published: rerun the command", Next: []suggest.Command{out.Intent.Suggest().Because("retry the change; nothing was published")}}, Outcome: out, Relays: relays}
}
