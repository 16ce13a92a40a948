package membership

import (
	"context"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/discovery"
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

// publishState is maintainers.md's order for a state the change must
// publish (the --force replacement: "publishes a fresh state event signed
// by the command runner that orders after every candidate used by the
// preview"; the removal handoff: "publishes the event to the repository
// relays, observes successful relay acceptance, then rechecks the
// membership and state frontier before closing the assignment"): sign it
// dated after every candidate, deliver it to every relay and read it back,
// then recheck with it as part of the frontier. Any failure leaves the
// membership unchanged. It returns the recheck's consistent cut.
func (p Pipeline) publishState(ctx context.Context, out *Outcome, reasks *int) (*relaypool.FetchResult, error) {
	pub := out.Plan.State.Publish
	p.phase(PhasePublishingState)
	evt := gitstate.StateEvent(out.Before.Coordinate().Identifier, pub.Head, pub.Refs, max(p.Now().Unix(), pub.NotBefore))
	if err := p.Signer.SignEvent(ctx, evt); err != nil {
		return nil, stopped(ctx, out, PhasePublishingState, &SignerError{Err: err})
	}
	if evt.PubKey != out.Plan.Author {
		return nil, &Failure{Kind: KindSignerMismatch, Outcome: out,
			Message: "the signer signed with a different key than the preview used; nothing was published"}
	}
	d := p.Deliver(ctx, out.Before.PublishRelays(), evt, relaypool.DeliverOptions{})
	out.State = evt
	out.StateDelivery = d
	if d.Accepted > 0 {
		out.Published = append(out.Published, evt.ID)
	}
	what := "the state event " + evt.ID + " (" + describePublication(pub) + ")"
	if problems := d.Problems(); d.Accepted == 0 || len(problems) > 0 {
		msg := "no relay accepted " + what
		if d.Accepted > 0 {
			msg = "not every relay accepted and returned " + what + ": " + strings.Join(problems, "; ")
		}
		return nil, &Failure{Kind: KindStatePublishFailed, Outcome: out, Problems: problems,
			Message:  msg + "; the membership change was not published, so the membership is unchanged",
			Commands: []suggest.Command{out.Intent.Suggest().Because("retry once the relays accept events")}}
	}
	// The frontier now holds the published state: the recheck expects it
	// and nothing else new.
	out.Plan.Fingerprint["30618:"+evt.PubKey] = evt.ID
	out.Plan.State.After.EventID = evt.ID
	p.phase(PhaseRechecking)
	fresh, err := p.again(ctx, out.Before)
	if err != nil {
		return nil, stopped(ctx, out, PhaseRechecking, err)
	}
	return p.recheck(ctx, out, fresh.Fetch, latestAnswer(fresh.Fetch), reasks)
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
