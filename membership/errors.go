package membership

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/suggest"
)

// Failure kinds, the stable codes of roster.mutation/v2 errors.
const (
	// KindConcurrentChange: an event the preview used changed before
	// signing; nothing was published.
	KindConcurrentChange = "concurrent-change"
	// KindSignerMismatch: the signer signed with another key than the
	// preview's author; nothing was published.
	KindSignerMismatch = "signer-mismatch"
	// KindPublishFailed: no relay accepted the event; nothing was published.
	KindPublishFailed = "publish-failed"
	// KindUnverified: published, but the read-back or the re-resolution
	// did not confirm the preview.
	KindUnverified = "unverified"
	// KindGitConfig: the checkout could not be switched to the lead.
	KindGitConfig = "git-config"
	// KindLocalRefs: the checkout's refs, which the change compares with
	// the repository state, cannot be read; nothing was published.
	KindLocalRefs = "local-refs-unreadable"
	// KindSuperseded: published, but a relay keeps another, newer version
	// of the coordinate as its latest: another edit may have won.
	KindSuperseded = "superseded"
	// KindInconsistentRead: the recheck could not take a consistent cut of
	// the relays (they answered too far apart, or not at all when asked
	// again); nothing was published.
	KindInconsistentRead = "inconsistent-read"
	// KindInterrupted: the command's context ended (an interrupt, or the
	// --deadline passed) in Phase. Sent says whether the EVENT reached any
	// relay: if so it may be in effect there.
	KindInterrupted = "interrupted"
)

// Failure is a change that was stopped, or published and not verified:
// the one failure type (failure.Failure: class, code, message, commands)
// with the change's own facts.
type Failure struct {
	failure.Failure
	// Outcome is what had happened so far (the preview, the delivery).
	Outcome *Outcome
	// Changed are the fingerprint keys that changed (concurrent-change),
	// described as people say them.
	Changed []string
	// Problems are the verification problems (unverified).
	Problems []string
	// ProblemTexts are Problems as parts where a rule built them so (the
	// people they name are values, suggest.Who): ProblemText uses one only
	// while it says exactly its problem.
	ProblemTexts []suggest.Block
	// Switch is the attempted checkout switch (git-config).
	Switch *Switch
	// Superseded maps each relay keeping a newer version of the coordinate
	// than the one published to that version's id (superseded).
	Superseded map[string]string
	// Relays are the relays a recheck could not cut consistently
	// (inconsistent-read).
	Relays []string
	// Phase is the phase an interrupted change had reached (interrupted).
	Phase string
	// Sent are the relays the EVENT was written to before an interrupt
	// (interrupted): it may be in effect there. Empty: nothing was sent.
	Sent []string
	// Availability is the object check (objects-unavailable, objects-unknown).
	Availability *gitstate.Availability
	// Journal is the change's unfinished write kept in the journal (its
	// signed events may be stored on some relays): `roster pending
	// resume` finishes it. "" when nothing was kept.
	Journal string
}

// SignerError is the signer failing to give its key or a signature.
type SignerError = failure.SignerError

func concurrentChange(out *Outcome, keys []string) *Failure {
	changed := preflight.DescribeFingerprintKeys(keys)
	return &Failure{Failure: failure.Failure{Code: KindConcurrentChange, Class: failure.Refused, Msg: "the repository changed after the preview (" + changedSummary(changed) +
		"); nothing was published: rerun the command to preview the current state"}, Outcome: out, Changed: changed}
}

// stopped turns err into an interrupted Failure when ctx ended (an
// interrupt or the deadline) before anything was sent; otherwise it
// returns err unchanged.
func stopped(ctx context.Context, out *Outcome, phase string, err error) error {
	if ctx.Err() == nil {
		return err
	}
	return &Failure{Failure: failure.Failure{Code: KindInterrupted, Class: failure.Interrupted, Err: ctx.Err(), Msg: fmt.Sprintf("stopped while %s; nothing was published", phase), Next: []suggest.Command{out.Intent.Suggest().Because("run the change again; nothing was published")}}, Outcome: out, Phase: phase}
}

// stoppedAfterSending is the interrupted Failure after the EVENT may have
// reached relays: which relays it was written to, and the read that shows
// whether it is in effect. An EVENT no relay was sent is nothing published.
func stoppedAfterSending(ctx context.Context, out *Outcome, evt *nostr.Event, phase string) *Failure {
	f := &Failure{Failure: failure.Failure{Code: KindInterrupted, Class: failure.Interrupted, Err: ctx.Err()}, Outcome: out, Phase: phase}
	if out.Delivery != nil {
		f.Sent = out.Delivery.SentTo()
	}
	if len(f.Sent) == 0 {
		f.Msg = fmt.Sprintf("stopped while %s; the replacement announcement %s was sent to no relay, so nothing was published", phase, evt.ID)
		f.Next = []suggest.Command{out.Intent.Suggest().Because("run the change again; nothing was published")}
		return f
	}
	if !slices.Contains(out.Published, evt.ID) {
		out.Published = append(out.Published, evt.ID)
	}
	f.Class = failure.Unverified
	f.Msg = fmt.Sprintf("stopped while %s, after the replacement announcement %s was sent to %s: it may be in effect there; "+
		"check what the relays resolve before running the change again", phase, evt.ID, strings.Join(f.Sent, ", "))
	f.Next = []suggest.Command{suggest.Roster("repo").Because("check whether the change is in effect")}
	return f
}

// ProblemText is problem i as parts: ProblemTexts[i] while it says exactly
// Problems[i], else the problem as plain text.
func (f *Failure) ProblemText(i int) suggest.Block {
	if i < len(f.ProblemTexts) && f.ProblemTexts[i].String() == f.Problems[i] {
		return f.ProblemTexts[i]
	}
	return suggest.Text(f.Problems[i])
}

// plainTexts are blocks as their plain text, in order.
func plainTexts(bs []suggest.Block) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.String()
	}
	return out
}
