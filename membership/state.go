package membership

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// Failure kinds of the state event a change publishes first.
const (
	// KindStatePublishFailed: the --force replacement or the removal
	// handoff was not accepted and read back by every relay; the
	// announcement was not published, so the membership is unchanged.
	KindStatePublishFailed = "state-publish-failed"
)

// PhasePublishingState is publishing the state event a change needs
// before its announcement.
const PhasePublishingState = "publishing the repository state"

// signState signs the state event a change must publish (maintainers.md:
// the --force replacement "publishes a fresh state event signed by the
// command runner that orders after every candidate used by the preview";
// the removal handoff "publishes the event to the repository relays,
// observes successful relay acceptance, then rechecks the membership and
// state frontier before closing the assignment"), dated after every
// candidate. It is signed together with the announcement, before either is
// published, so that the two are published back to back (signAll).
func (p Pipeline) signState(ctx context.Context, out *Outcome) (*nostr.Event, error) {
	pub := out.Plan.State.Publish
	p.phase(PhasePublishingState)
	evt := gitstate.StateEvent(out.Before.Coordinate().Identifier, pub.Head, pub.Refs, max(p.Now().Unix(), pub.NotBefore))
	if err := p.Signer.SignEvent(ctx, evt); err != nil {
		return nil, stopped(ctx, out, PhaseSigning, &SignerError{Err: err})
	}
	if evt.PubKey != out.Plan.Author {
		return nil, &Failure{Failure: failure.Failure{Code: KindSignerMismatch, Class: failure.Unexpected, Msg: "the signer signed with a different key than the preview used; nothing was published"}, Outcome: out}
	}
	// The verification expects the repository to resolve this event.
	out.Plan.State.After.EventID = evt.ID
	return evt, nil
}

// deliverState publishes the signed state event to every relay and reads
// it back. Unless every relay accepted and returned it the announcement is
// not sent, so the membership is unchanged; what was stored is said
// (exit 6 when any relay keeps it).
func (p Pipeline) deliverState(ctx context.Context, out *Outcome, evt *nostr.Event, answered func(relaypool.PublishReport), fresh func() error) error {
	pub := out.Plan.State.Publish
	p.phase(PhasePublishingState)
	if err := fresh(); err != nil {
		return err
	}
	d := p.Relays.Deliver(ctx, out.Before.PublishRelays(), evt, relaypool.DeliverOptions{Answered: answered})
	out.State = evt
	out.StateDelivery = d
	if d.Accepted > 0 {
		out.Published = append(out.Published, evt.ID)
	}
	what := "the state event " + evt.ID + " (" + describePublication(pub) + ")"
	if ctx.Err() != nil {
		f := &Failure{Failure: failure.Failure{Code: KindInterrupted, Class: failure.Interrupted, Err: ctx.Err()}, Outcome: out, Phase: PhasePublishingState}
		f.Sent = d.SentTo()
		if len(f.Sent) == 0 {
			f.Msg = fmt.Sprintf("stopped while %s; %s was sent to no relay, so nothing was published", PhasePublishingState, what)
			f.Next = []suggest.Command{out.Intent.Suggest().Because("run the change again; nothing was published")}
			return f
		}
		if !slices.Contains(out.Published, evt.ID) {
			out.Published = append(out.Published, evt.ID)
		}
		f.Class = failure.Unverified
		f.Msg = fmt.Sprintf("stopped while %s, after %s was sent to %s: it may be in effect there; the announcement was not sent, so the membership is unchanged",
			PhasePublishingState, what, strings.Join(f.Sent, ", "))
		f.Next = recovery(out)
		return f
	}
	if problems := d.Problems(); d.Accepted == 0 || len(problems) > 0 {
		msg := "no relay accepted " + what + "; nothing was published, so the membership is unchanged"
		cmds := []suggest.Command{out.Intent.Suggest().Because("retry once the relays accept events")}
		class := failure.Unexpected
		if d.Accepted > 0 {
			class = failure.Unverified // the state event is stored where it was accepted
			msg = "not every relay accepted and returned " + what + ": " + strings.Join(problems, "; ") +
				"; the announcement was not sent, so the membership is unchanged, but the state event is stored where it was accepted"
			cmds = recovery(out)
		}
		return &Failure{Failure: failure.Failure{Code: KindStatePublishFailed, Class: class, Msg: msg, Next: cmds}, Outcome: out, Problems: problems}
	}
	// The frontier now holds the published state.
	out.Plan.Fingerprint["30618:"+evt.PubKey] = evt.ID
	return nil
}

func describePublication(pub *preflight.StatePublication) string {
	if pub.Reason == preflight.PublishHandoff {
		return fmt.Sprintf("the removal handoff: the same default branch and %d ref(s)", len(pub.Refs))
	}
	return fmt.Sprintf("--force: this checkout's %d ref(s)", len(pub.Refs))
}

// StateDiffersFromPreview compares the re-read repository's resolved state
// with the preview's (or the state the change published): the same event,
// default branch and complete ref map.
func StateDiffersFromPreview(want *preflight.ResolvedState, got *discovery.View) []string {
	var have *preflight.ResolvedState
	if got.State != nil {
		have = &preflight.ResolvedState{EventID: got.State.EventID, Author: got.State.Author, Head: got.State.Head, Refs: got.State.Refs}
	}
	switch {
	case want == nil && have == nil:
		return nil
	case want == nil:
		return []string{fmt.Sprintf("the repository now resolves the state event %s by %s; the preview resolved none", have.EventID, graph.Npub(have.Author))}
	case have == nil:
		return []string{fmt.Sprintf("the repository now resolves no state; the preview resolved %s", want.EventID)}
	case have.EventID != want.EventID || !preflight.SameState(want, have):
		return []string{fmt.Sprintf("the repository's state is now the event %s by %s (%d ref(s)), not %s as previewed",
			have.EventID, graph.Npub(have.Author), len(have.Refs), want.EventID)}
	}
	return nil
}
