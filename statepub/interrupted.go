package statepub

import (
	"context"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/suggest"
)

// CodeInterrupted: the command's context ended (an interrupt, or the
// --deadline passed) in Failure.Phase. Before the state event may be
// stored anywhere it is class Interrupted and nothing was published; once
// a relay may keep it, class Unverified, naming the event and the relays
// (membership.KindInterrupted).
const CodeInterrupted = "interrupted"

// The phases of a publication, as Failure.Phase names them (membership's
// words, plus the object check).
const (
	PhaseDiscovering = "discovering"
	PhaseCheckingGit = "checking the Git servers"
	PhaseRechecking  = "rechecking"
	PhaseSigning     = "signing"
	PhasePublishing  = "publishing"
	PhaseReadingBack = "reading back"
	PhaseVerifying   = "verifying"
)

// stopped turns err into the interrupted Failure when ctx ended (an
// interrupt or the deadline) before the state event was sent anywhere;
// otherwise it returns err unchanged.
func stopped(ctx context.Context, out *Outcome, force bool, phase string, err error) error {
	if ctx.Err() == nil {
		return err
	}
	return &Failure{Failure: failure.Failure{Code: CodeInterrupted, Class: failure.Interrupted, Err: ctx.Err(),
		Next: []suggest.Command{publishCmd(force).Because("run it again; nothing was published")}},
		Outcome: out, Phase: phase, Lines: []string{fmt.Sprintf("stopped while %s; nothing was published", phase)}}
}

// stoppedAfterSending is the interrupted Failure once the state event was
// sent: when no relay may keep it (none was sent it, or every one refused
// it) nothing was published; otherwise it was published where relays
// accepted it and the verification stopped: `roster repo state` shows
// what the repository resolves.
func stoppedAfterSending(ctx context.Context, out *Outcome, evt *nostr.Event, phase string) *Failure {
	d := out.Delivery
	if d == nil || !track.MayBeStored(d) {
		what := "was sent to no relay"
		if d != nil && len(d.SentTo()) > 0 {
			what = "was refused by every relay it was sent to"
		}
		f := stopped(ctx, out, out.Plan.Forced, phase, nil).(*Failure)
		f.Lines = []string{fmt.Sprintf("stopped while %s; the state event %s %s, so nothing was published", phase, evt.ID, what)}
		return f
	}
	f := &Failure{Failure: failure.Failure{Code: CodeInterrupted, Class: Unverified, Err: ctx.Err(),
		Next: []suggest.Command{suggest.Roster("repo", "state").Because("check whether the published state is in effect")}},
		Outcome: out, Phase: phase, Sent: d.SentTo()}
	if d.Accepted > 0 {
		f.Lines = []string{fmt.Sprintf("stopped while %s, after the state event %s was published to %d %s (%s); verification stopped, so whether the repository resolves it is not known",
			phase, evt.ID, d.Accepted, plural(d.Accepted, "relay", "relays"), strings.Join(d.AcceptedBy(), ", "))}
	} else {
		f.Lines = []string{fmt.Sprintf("stopped while %s, after the state event %s was sent to %s without an answer: it may be in effect there; verification stopped",
			phase, evt.ID, strings.Join(f.Sent, ", "))}
	}
	return f
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
