package membership

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// KindPartlyPublished: the state event a change publishes first (the
// --force replacement, the removal handoff) was stored, and then the
// announcement was not (no relay accepted it, or another edit of the
// coordinate came first): the repository state changed, the membership did
// not. Exit 6, never "nothing was published".
const KindPartlyPublished = "partly-published"

// signAndPublish is the write of a change once the recheck passed: every
// event it publishes is signed first (the state event, then the
// announcement, dated at signing and after everything the preview used),
// an aged cut is asked again right before each is sent, and they are
// published back to back, the state event first, so that the window in
// which the state is stored and the announcement not yet is one relay
// round. The re-read after the announcement (publish) verifies both the
// membership and the state frontier.
func (p Pipeline) signAndPublish(ctx context.Context, out *Outcome, cut *relaypool.FetchResult, reasks *int) error {
	var state *nostr.Event
	if out.Plan.State.Publish != nil {
		var err error
		if state, err = p.signState(ctx, out); err != nil {
			return err
		}
	}
	evt := out.Plan.EventAt(p.Now().Unix())
	if evt != nil {
		p.phase(PhaseSigning)
		if err := p.Signer.SignEvent(ctx, evt); err != nil {
			return stopped(ctx, out, PhaseSigning, &SignerError{Err: err})
		}
		if evt.PubKey != out.Plan.Author {
			return &Failure{Failure: failure.Failure{Code: KindSignerMismatch, Class: failure.Unexpected, Msg: "the signer signed with a different key than the preview used; nothing was published"}, Outcome: out}
		}
	}
	// Whatever aged the cut since the recheck (a slow signer such as a
	// bunker, the journal's sync on a busy disk, the state event's
	// delivery) is asked again right before each event is sent: the window
	// in which another writer's edit can land unseen stays CutWindow.
	fresh := func() error { return p.freshCut(ctx, out, cut, reasks) }
	write, err := p.journalBegin(out, state, evt)
	if err != nil {
		return err
	}
	if state != nil {
		if err := ctx.Err(); err != nil {
			return stopped(ctx, out, PhasePublishingState, err)
		}
		if err := p.deliverState(ctx, out, state, write.Answered(0), fresh); err != nil {
			return err
		}
	}
	if evt == nil {
		return nil
	}
	seq := 0
	if state != nil {
		seq = 1
	}
	return afterState(out, p.publish(ctx, out, evt, write.Answered(seq), fresh))
}

// freshCut asks again the relays of cut whose answer is more than
// CutWindow old by now, and compares with the preview (recheck). Relay
// latency is measured on the real clock, like relaypool's timeouts; Now
// only dates events. A failure is nothing sent yet: the caller runs it
// right before a Deliver.
func (p Pipeline) freshCut(ctx context.Context, out *Outcome, cut *relaypool.FetchResult, reasks *int) error {
	if cut == nil || len(relaypool.StaleRelays(cut, time.Now())) == 0 {
		return nil
	}
	p.phase(PhaseRechecking)
	if _, err := p.recheck(ctx, out, cut, time.Now(), reasks); err != nil {
		return stopped(ctx, out, PhaseRechecking, err)
	}
	return nil
}

// stateStored says whether the state event the change published first is
// stored on some relay.
func stateStored(out *Outcome) bool {
	return out.State != nil && slices.Contains(out.Published, out.State.ID)
}

// afterState makes a failure of the announcement truthful when the state
// event was stored before it: the message and the commands say what is in
// effect, and a failure that would say "nothing was published" becomes
// partly-published.
func afterState(out *Outcome, err error) error {
	if err == nil || !stateStored(out) {
		return err
	}
	f, ok := err.(*Failure)
	if !ok {
		// The check right before the announcement's send could not read
		// the relays: the announcement was not sent, the state was stored.
		f = &Failure{Failure: failure.Failure{Code: KindInconsistentRead, Err: err}, Outcome: out}
	}
	stored := storedState(out)
	switch f.Code {
	case KindPublishFailed, KindConcurrentChange, KindInconsistentRead:
		why := "no relay accepted the announcement"
		switch f.Code {
		case KindConcurrentChange:
			why = "another edit of your announcement came first (" + strings.Join(f.Changed, ", ") + "), so no relay stored yours"
		case KindInconsistentRead:
			why = "the relays could not be read again right before the announcement was to be sent, so it was not sent"
		}
		return &Failure{Failure: failure.Failure{Code: KindPartlyPublished, Class: failure.Unverified, Msg: fmt.Sprintf("published %s, but %s: the repository state changed and the membership did not. %s",
			stored, why, recoveryWords(out)), Next: recovery(out)}, Outcome: out, Changed: f.Changed, Problems: f.Problems}
	case KindInterrupted:
		if len(f.Sent) == 0 {
			for _, r := range out.StateDelivery.Relays {
				if r.OK {
					f.Sent = append(f.Sent, r.URL)
				}
			}
			f.Msg = fmt.Sprintf("stopped while %s, after %s; the announcement was sent to no relay: the repository state changed and the membership did not. %s",
				f.Phase, stored, recoveryWords(out))
			f.Next = recovery(out)
		}
		if len(f.Sent) > 0 {
			f.Class = failure.Unverified
		}
		return f
	default:
		f.Msg += "; before it, " + stored
		return f
	}
}

// storedState says which state event the change stored, why, and where.
func storedState(out *Outcome) string {
	n := 0
	for _, r := range out.StateDelivery.Relays {
		if r.OK {
			n++
		}
	}
	return fmt.Sprintf("the state event %s (%s) to %d relay(s)", out.State.ID, describePublication(out.Plan.State.Publish), n)
}

// recoveryWords is what recovery's commands do, in a sentence.
func recoveryWords(out *Outcome) string {
	if out.Plan.State.Publish.Reason == preflight.PublishHandoff {
		return "The handoff state holds the same refs as before; rerun the removal to publish it"
	}
	before := out.Plan.State.Before
	if before == nil {
		return "Rerun the change to apply it to the state now in effect, or publish the state you want with `roster repo state publish`"
	}
	return fmt.Sprintf("Rerun the change to apply it to the state now in effect; or, to put back the previous state %s (%d ref(s)), check those refs out and publish them with `roster repo state publish --force`",
		before.EventID, len(before.Refs))
}

// recovery are the commands after a state event was stored and the
// announcement was not: each goes through its own preview, recheck and
// object checks; roster never signs a further event on its own.
func recovery(out *Outcome) []suggest.Command {
	cmds := []suggest.Command{out.Intent.Suggest().Because("rerun the change: it previews the repository with the published state in place")}
	if out.Plan.State.Publish.Reason == preflight.PublishForce && out.Plan.State.Before != nil {
		cmds = append(cmds, suggest.Roster("repo", "state", "publish", "--force").
			Because("from a checkout at the previous state ("+out.Plan.State.Before.EventID+"), to put it back"))
	}
	return append(cmds, suggest.Roster("repo", "state").Because("see the state the relays now resolve"))
}
