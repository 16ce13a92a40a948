// Package membership is the write pipeline of every membership change
// (`repo edit`, `accept`, `leave`, `follow-lead`): discover the repository
// with complete evidence, preview the change with preflight, re-read every
// event the preview used in a consistent cut of the relays and stop if any
// changed, sign (dated at signing time, after everything it replaces),
// publish, read back, confirm each relay keeps it as the latest version,
// re-resolve and check the result equals the preview, and for follow-lead
// switch the checkout to the lead's coordinate. The discovery, clock,
// signer, relays and checkout are passed in; nothing here renders.
package membership

import (
	"context"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
)

// Pipeline is what one membership change needs from the outside world.
type Pipeline struct {
	// Read reads the repository the change edits: a discovery.Query with
	// the source (relays, pool, cache, profiles), the selected coordinate,
	// its checkout and the viewer, made a write's (Query.Write: complete
	// evidence from everyone's relays, the change's subject and new lead
	// in reach). The pipeline runs it itself: the preview's discovery
	// (Load), the recheck and the re-read after publishing (Again, in one
	// round carrying every filter the discovery asked, to which the
	// re-read adds the read-back's). What discovery could not do comes
	// back as its own typed errors (*discovery.Incomplete, ...), for the
	// caller to word.
	Read discovery.Reader
	// Relays publishes the events and reads them back (Deliver), and asks
	// some relays of an earlier read again with every filter it asked
	// (Reask), how the recheck makes its cut consistent: a
	// *relaypool.Pool, or relaypool.Fresh for a pool per operation.
	Relays Relays
	// Now is the clock the replacement is dated by when it is signed.
	Now func() time.Time
	// Signer signs the replacement announcement.
	Signer signer.Signer
	// Availability checks that Git servers advertise every OID of a state
	// (gitstate.CheckAvailability). When set, a preview whose post-change
	// resolved state names OIDs is checked against the post-change
	// component's clone servers before anything is signed; nil skips the
	// check and the preview lists it under not_checked.
	Availability func(ctx context.Context, servers []gitstate.Server, oids map[string]string) gitstate.Availability
	// BeforeRecheck runs between the preview and the pre-signing recheck,
	// AfterPublish between publishing and read-back. Tests set them to
	// publish a concurrent change or silence a relay; nil otherwise. They
	// stay functions: they are moments inside Run, which no value given
	// before it could reach.
	BeforeRecheck, AfterPublish func()
	// Phase, when set, is told each phase as it starts (Phase* constants):
	// for a progress display. nil is fine. An observer, so a function: the
	// pipeline asks nothing of it.
	Phase func(phase string)
	// Lock, when set, takes the home's lock on address (the coordinate the
	// change replaces, "30617:<author>:<identifier>"), waiting within its
	// own bound (then ErrLocked) or until ctx ends; Run holds it from the
	// recheck to the last re-read (lockCoordinate).
	Lock func(ctx context.Context, address string) (unlock func(), err error)
	// Journal keeps every event the change signs from before the first
	// relay is sent it until the change is verified (nil: none).
	Journal *journal.Dir
	// Notice, when set, is told the journal's unfinished writes that touch
	// the coordinate, after discovery and before anything is signed: a
	// change never signs another event for the coordinate without saying
	// so. They are also in Outcome.Unfinished. An observer, as Phase (the
	// command says them before its progress line goes on).
	Notice func([]journal.Unfinished)
}

// Relays is what a write says to relays after discovery: publish with
// read-back, and re-ask for a consistent cut. *relaypool.Pool and
// relaypool.Fresh are Relays.
type Relays interface {
	Deliver(ctx context.Context, relays []string, evt *nostr.Event, opts relaypool.DeliverOptions) *relaypool.Delivery
	Reask(ctx context.Context, prev *relaypool.FetchResult, relays []string) *relaypool.FetchResult
}

// The phases of a change, in order, as Phase and Failure.Phase name them.
const (
	PhaseDiscovering = "discovering"
	PhaseRechecking  = "rechecking"
	PhaseSigning     = "signing"
	PhasePublishing  = "publishing"
	PhaseReadingBack = "reading back"
	PhaseVerifying   = "verifying"
	PhaseSwitching   = "switching the checkout"
)

// phase reports a phase change.
func (p Pipeline) phase(name string) {
	if p.Phase != nil {
		p.Phase(name)
	}
}

// discover is the change's discovery: complete evidence, dated now.
func (p Pipeline) discover(ctx context.Context) (*discovery.View, error) {
	return p.Read.Load(ctx, discovery.Complete, p.Now().Unix())
}

// again asks prev's relays again (discovery.Query.Again), also adding
// filters to that one request.
func (p Pipeline) again(ctx context.Context, prev *discovery.View, also ...nostr.Filter) (*discovery.View, error) {
	return p.Read.Again(ctx, prev, p.Now().Unix(), also...)
}

// Outcome is what a change did, or would do with DryRun.
type Outcome struct {
	Intent preflight.Intent
	DryRun bool
	// Before is the discovery the preview used.
	Before *discovery.View
	// Plan is the preview; nil when Refusal is set.
	Plan *preflight.Plan
	// Refusal is preflight's refusal (Code "nothing-to-change" is success).
	Refusal *preflight.Refusal
	// Delivery is what each relay said about the published event; nil when
	// nothing was published.
	Delivery *relaypool.Delivery
	// Published are the ids of the events relays accepted.
	Published []string
	// Verified: read back from every relay and re-resolved as previewed.
	Verified bool
	// After is the re-read after publishing (nil before verification).
	After *discovery.View
	// Switch is the follow-lead checkout switch; nil when there was none.
	Switch *Switch
	// State is the kind 30618 event published before the announcement (the
	// --force replacement or the removal handoff), StateDelivery what each
	// relay said about it; nil when there was none.
	State         *nostr.Event
	StateDelivery *relaypool.Delivery
	// OlderServed are the relays whose verification reads still returned
	// an older version of the published announcement's address (by
	// address or to a repeated filter) beside it; the change may still be
	// verified (noteOlderServed).
	OlderServed []relaypool.OlderVersion
	// Unfinished are the journal's unfinished writes touching the
	// coordinate when the change started.
	Unfinished []journal.Unfinished
	// Journal is the id of the change's own write in the journal while it
	// is unfinished ("" once verified, or when nothing was kept).
	Journal string
	kept    *track.Write
}

// Run previews intent and, unless dryRun, publishes it. A refusal is an
// Outcome with Refusal set, not an error; errors are *Failure (the change
// was stopped or could not be verified), *SignerError, or what discovery
// could not do (its typed errors, unchanged).
func (p Pipeline) Run(ctx context.Context, intent preflight.Intent, dryRun bool) (*Outcome, error) {
	author, err := p.Signer.PublicKey(ctx)
	if err != nil {
		return nil, &SignerError{Err: err}
	}
	p.phase(PhaseDiscovering)
	v, err := p.discover(ctx)
	if err != nil {
		return nil, stopped(ctx, &Outcome{Intent: intent, DryRun: dryRun}, PhaseDiscovering, err)
	}
	out := &Outcome{Intent: intent, DryRun: dryRun, Before: v}
	if out.Unfinished, err = unfinishedFor(p.Journal, v, author); err != nil {
		return nil, journalUnreadable(out, err)
	}
	if len(out.Unfinished) > 0 && p.Notice != nil {
		p.Notice(out.Unfinished)
	}
	in := preflight.Input{Author: author, Selected: v.Coordinate(), Events: v.Events, Now: v.Now, Intent: intent,
		Actions: v.Actions, ActionsDropped: v.ActionsDropped, ActionsLeftOut: v.ActionsOverLimit,
		LastComplete: v.LastComplete}
	if v.Checkout != nil {
		local, tracking, err := checkoutRefs(v)
		switch {
		case err == nil:
			in.LocalRefs, in.Tracking = local, tracking
			if intent.Force {
				in.Contained = contained(v, local, tracking)
			}
			in.RootCommit = rootCommit(v, intent)
		case intent.Action == preflight.ActAccept || intent.Force:
			// Accepting compares the checkout's complete ref map with the
			// state it would activate, and --force publishes it: a
			// comparison that cannot be made is a refusal, never a skipped
			// check.
			return nil, &Failure{Failure: failure.Failure{Code: KindLocalRefs, Class: failure.Refused, Err: err, Msg: "cannot compare this checkout's branches and tags with the repository state, so nothing was published: " + err.Error()}, Outcome: &Outcome{Intent: intent, Before: v}}
		}
	}
	out.Plan, out.Refusal = preflight.Prepare(in)
	noteRelays(out, v)
	if out.Refusal != nil {
		out.Plan = nil
		return out, nil
	}
	if err := p.checkObjects(ctx, out); err != nil {
		return nil, err
	}
	if dryRun {
		return out, nil
	}

	// Recheck: a concurrent graph or state change aborts before signing.
	if p.BeforeRecheck != nil {
		p.BeforeRecheck()
	}
	p.phase(PhaseRechecking)
	unlock, err := p.lockCoordinate(ctx, out)
	if err != nil {
		return nil, err
	}
	defer unlock()
	fresh, err := p.again(ctx, v)
	if err != nil {
		return nil, stopped(ctx, out, PhaseRechecking, err)
	}
	reasks := cutRounds // shared by the rechecks before and after signing
	cut, err := p.recheck(ctx, out, fresh.Fetch, relaypool.LatestAnswer(fresh.Fetch), &reasks)
	if err != nil {
		return nil, stopped(ctx, out, PhaseRechecking, err)
	}

	if err := p.journalEnd(out, p.signAndPublish(ctx, out, cut, &reasks)); err != nil {
		return nil, err
	}
	if out.Plan.SwitchTo != nil {
		p.phase(PhaseSwitching)
		sw, err := switchCheckout(v, *out.Plan.SwitchTo)
		if err != nil {
			return nil, err
		}
		out.Switch = sw
	}
	return out, nil
}

// checkoutRefs are the checkout's complete local ref map and the
// remote-tracking branches of the remotes that stand for the repository's
// servers: the nostr:// remote naming the coordinate and every remote whose
// URL is one of the component's advertised clone URLs (the reading
// statepub.CompareCheckout makes, so `repo state` and a membership change
// agree).
func checkoutRefs(v *discovery.View) (local map[string]string, tracking []preflight.TrackingRef, err error) {
	prefer := ""
	if rest, ok := strings.CutPrefix(v.Selection.Detail, "remote "); ok && !strings.Contains(rest, ",") {
		prefer = rest
	}
	refs, err := v.Checkout.ReadStateRefs(v.Coordinate(), prefer, gitstate.ComponentCloneServers(v.Resolution))
	if err != nil {
		return nil, nil, err
	}
	for _, t := range refs.Tracking {
		tracking = append(tracking, preflight.TrackingRef(t))
	}
	return refs.Local, tracking, nil
}
