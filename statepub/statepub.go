// Package statepub is the write pipeline of `roster repo state publish`: a
// confirmed maintainer publishes the checkout's branches and tags as the
// repository's kind 30618 state, in ngit's shape. It discovers the
// repository with complete evidence, compares the checkout with the
// resolved state (preflight.AlignCheckout), refuses a ref that would not
// descend from its resolved OID and the removal of a resolved ref unless
// forced, checks every OID is advertised by the component's Git servers,
// dates the event strictly after every candidate state event, signs,
// publishes, reads back and re-resolves: the resolved state must be the
// event published. The read (a discovery.Query: source, coordinate,
// checkout, viewer), clock, signer, relays and availability check are
// passed in as values; nothing here renders.
package statepub

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/suggest"
)

// Pipeline is what one state publication needs from the outside world.
type Pipeline struct {
	// Read reads the repository: a discovery.Query (the source, the
	// selected coordinate, the checkout whose refs are published, the
	// viewer) made a write's (Query.Write). The pipeline runs it itself:
	// the discovery, the recheck (Again) and the re-read after publishing.
	// What discovery could not do comes back as its own typed errors
	// (*discovery.Incomplete, ...), for the caller to word.
	Read discovery.Reader
	// Now dates the event.
	Now func() time.Time
	// Signer signs it.
	Signer signer.Signer
	// Relays publishes the event and reads it back (Deliver), and asks
	// some relays of a read again (Reask), how the recheck makes its cut
	// consistent: a *relaypool.Pool, or relaypool.Fresh for a pool per
	// operation.
	Relays Relays
	// Availability checks that Git servers serve every OID
	// (gitstate.CheckAvailability); the command bounds it by its time
	// budget.
	Availability func(ctx context.Context, servers []gitstate.Server, oids map[string]string) gitstate.Availability
	// BeforeRecheck runs between the plan and the recheck, AfterPublish
	// between publishing and read-back (tests publish a concurrent state
	// there); nil otherwise. Moments inside Run, so functions.
	BeforeRecheck, AfterPublish func()
	// Journal keeps the signed event from before the first relay is sent
	// it until it is verified (nil: none). Notice, when set, is told the
	// journal's unfinished writes touching the repository before anything
	// is signed (also in Outcome.Unfinished).
	Journal *journal.Dir
	Notice  func([]journal.Unfinished)
}

// Relays is what the publication says to relays after discovery:
// publish with read-back, and re-ask for a consistent cut.
// *relaypool.Pool and relaypool.Fresh are Relays.
type Relays interface {
	Deliver(ctx context.Context, relays []string, evt *nostr.Event, opts relaypool.DeliverOptions) *relaypool.Delivery
	Reask(ctx context.Context, prev *relaypool.FetchResult, relays []string) *relaypool.FetchResult
}

// Options are the user's choices.
type Options struct {
	// Force publishes refs that do not descend from their resolved OID and
	// removes resolved refs the checkout lacks.
	Force  bool
	DryRun bool
}

// Plan is the state the pipeline would publish.
type Plan struct {
	Author string
	// Resolved is the state in effect (nil when none).
	Resolved *preflight.ResolvedState
	// Head and Refs are what the event carries.
	Head string
	Refs map[string]string
	// Changes are what publishing changes in the resolved state;
	// Rewrites those that need --force (an update that does not descend, a
	// removal), each with its reason.
	Changes  []preflight.RefAction
	Rewrites []Rewrite
	// Tracked are state branches the checkout has only as remote-tracking
	// refs at the state's OID; they are published unchanged. TrackedBy
	// names each one's remote-tracking branch ("origin/dev"). Remote is the
	// nostr:// remote naming the coordinate ("" when none does); Remotes
	// every remote whose remote-tracking branches count (Remote, then each
	// remote whose URL is an advertised clone URL).
	Tracked   []string
	TrackedBy map[string]string
	Remote    string
	Remotes   []string
	// Availability is the object check against Servers.
	Servers      []gitstate.Server
	Availability gitstate.Availability
	// NotBefore is one second after every candidate state event (and the
	// author's own state deletions); CreatedAt the event's time.
	NotBefore, CreatedAt int64
	Forced               bool
}

// Rewrite is one change that needs --force.
type Rewrite struct {
	preflight.RefAction
	Reason string `json:"reason"`
}

// Outcome is what the publication did, or would do with DryRun.
type Outcome struct {
	View   *discovery.View
	Plan   *Plan
	DryRun bool
	// Unchanged: the author's own resolved state already carries these
	// refs; nothing was published.
	Unchanged bool
	// Event is the signed event (nil on a dry run or when unchanged).
	Event    *nostr.Event
	Delivery *relaypool.Delivery
	// Rechecked: the recheck before signing compared the relays' fresh
	// answers with the plan and found nothing changed (false on a dry run,
	// and when it could not compare: then nothing was published).
	Rechecked bool
	Verified  bool
	After     *discovery.View
	// Unfinished are the journal's unfinished writes touching the
	// repository when the command started; Journal the id of this
	// publication's own unfinished write ("" once verified).
	Unfinished []journal.Unfinished
	Journal    string
	kept       *track.Write
}

// Class says how a failure ends the command (failure.Class).
type Class = failure.Class

const (
	// Refused: a safety check stopped it, nothing published (exit 3).
	Refused = failure.Refused
	// Incomplete: not enough evidence, nothing published (exit 4).
	Incomplete = failure.Incomplete
	// Unverified: published, not verified (exit 6).
	Unverified = failure.Unverified
	// Failed: could not publish (exit 1).
	Failed = failure.Unexpected
	// Usage: run where it cannot work (exit 2).
	Usage = failure.Usage
)

// Failure codes.
const (
	CodeNoCheckout       = "no-checkout"
	CodeNotMaintainer    = "not-a-maintainer"
	CodeLocalRefs        = "local-refs-unreadable"
	CodeNoRefs           = "no-refs"
	CodeNotDescendant    = "not-a-descendant"
	CodeRefRemoved       = "ref-removed"
	CodeBaseInTheFuture  = "base-in-the-future"
	CodeSigner           = "signer"
	CodePublishFailed    = "publish-failed"
	CodeUnverified       = "unverified"
	CodeObjectsMissing   = gitstate.ObjectsUnavailable
	CodeObjectsUnknown   = gitstate.ObjectsUnknown
	CodeSignerMismatched = "signer-mismatch"
)

// Failure is a publication that was stopped, or published and not
// verified: the one failure type (failure.Failure: class, code, commands)
// with the publication's own facts. Its message is Lines joined.
type Failure struct {
	failure.Failure
	// Lines are the message, one line each (roster's line breaks; the
	// values in them may come from relays and must be escaped alone).
	Lines   []string
	Outcome *Outcome
	// Rewrites (not-a-descendant, ref-removed), Availability
	// (objects-*), Problems (unverified) are the facts.
	Rewrites     []Rewrite
	Availability *gitstate.Availability
	Problems     []string
	// ForceWords says what the offered --force would remove or rewind
	// (not-a-descendant, ref-removed), in words.
	ForceWords string
	// Journal is the unfinished write kept in the journal ("" when none).
	Journal string
	// Changed are the events that changed since the plan
	// (concurrent-change), as people say them.
	Changed []string
	// Phase is the phase an interrupted publication had reached, Sent the
	// relays the state event was written to before the interrupt
	// (interrupted; empty: nothing was sent).
	Phase string
	Sent  []string
}

func (f *Failure) Error() string { return strings.Join(f.Lines, "\n") }

// Base is the failure.Failure with its message, Lines joined (failure.Of).
func (f *Failure) Base() *failure.Failure {
	f.Msg = f.Error()
	return &f.Failure
}

// SignerError is the signer failing to give its key or a signature.
type SignerError = failure.SignerError

func publishCmd(force bool) suggest.Command {
	c := suggest.Roster("repo", "state", "publish")
	if force {
		c = c.With("--force")
	}
	return c
}

// Run plans the publication and, unless DryRun, publishes it.
func (p Pipeline) Run(ctx context.Context, opts Options) (*Outcome, error) {
	author, err := p.Signer.PublicKey(ctx)
	if err != nil {
		return nil, &SignerError{Err: err}
	}
	v, err := p.discover(ctx)
	if err != nil {
		return nil, stopped(ctx, nil, opts.Force, PhaseDiscovering, err)
	}
	out := &Outcome{View: v, DryRun: opts.DryRun}
	if out.Unfinished, err = p.unfinished(v, author); err != nil {
		return nil, journalUnreadable(out, opts.Force, err)
	}
	if len(out.Unfinished) > 0 && p.Notice != nil {
		p.Notice(out.Unfinished)
	}
	if v.Checkout == nil {
		return nil, &Failure{Failure: failure.Failure{Code: CodeNoCheckout, Class: Usage}, Outcome: out, Lines: []string{"repo state publish publishes a checkout's branches and tags: run it inside the Git checkout of this repository"}}
	}
	if !v.Resolution.Confirmed(author) {
		return nil, &Failure{Failure: failure.Failure{Code: CodeNotMaintainer, Class: Refused, Next: []suggest.Command{suggest.Roster("repo").Because("who maintains this repository")}}, Outcome: out, Lines: []string{fmt.Sprintf("%s is not a confirmed maintainer of %s: only confirmed maintainers publish repository state (moderators, invitees and others do not)",
			graph.Npub(author), gitstate.NostrURL(v.Coordinate(), nil))}}
	}
	plan, err := p.plan(ctx, v, author, opts)
	out.Plan = plan
	if err != nil {
		if f, ok := err.(*Failure); ok {
			f.Outcome = out
		}
		return nil, err
	}
	if plan.unchanged() {
		out.Unchanged = true
		return out, nil
	}
	if opts.DryRun {
		return out, nil
	}
	left := cutRounds
	cut, err := p.recheck(ctx, out, &left)
	if err != nil {
		return nil, stopped(ctx, out, opts.Force, PhaseRechecking, err)
	}
	return out, p.journalEnd(out, p.publish(ctx, out, cut, &left))
}

// plan compares, checks descent, checks objects and dates the event.
func (p Pipeline) plan(ctx context.Context, v *discovery.View, author string, opts Options) (*Plan, error) {
	pl := &Plan{Author: author, Forced: opts.Force}
	pl.Resolved = resolvedState(v)
	cmp, err := compare(v)
	if err != nil {
		return pl, &Failure{Failure: failure.Failure{Code: CodeLocalRefs, Class: Refused, Err: err, Next: []suggest.Command{suggest.Git("fsck").Because("what is damaged in this checkout"), publishCmd(opts.Force).Because("once the refs read again")}}, Lines: []string{"cannot read this checkout's branches, tags, remotes and remote-tracking branches, so nothing was published: " + err.Error()}}
	}
	al := cmp.Alignment
	pl.Remote, pl.Remotes = cmp.Remote, cmp.Remotes
	pl.Head, pl.Refs, pl.Tracked, pl.TrackedBy, pl.Changes, pl.Rewrites = al.Head, al.Refs, al.Tracked, al.TrackedBy, cmp.Changes, cmp.Rewrites
	if len(pl.Refs) == 0 {
		return pl, &Failure{Failure: failure.Failure{Code: CodeNoRefs, Class: Refused}, Lines: []string{"this checkout has no branches or tags to publish: commit, then rerun"}}
	}
	if pl.unchanged() {
		// The author's own state already says this: nothing to sign, and
		// no Git server to ask.
		return pl, nil
	}
	if len(pl.Rewrites) > 0 && !opts.Force {
		return pl, rewriteRefusal(pl)
	}
	// The author's own file:// URLs count; anybody else's are shown only.
	pl.Servers = gitstate.ComponentServers(v.Resolution, author)
	pl.Availability = p.Availability(ctx, pl.Servers, pl.Refs)
	if err := ctx.Err(); err != nil {
		// Stopped while the servers were asked: what they did not answer
		// says nothing about the objects.
		return pl, stopped(ctx, nil, opts.Force, PhaseCheckingGit, err)
	}
	if f := pl.Availability.Failure(); f != nil {
		class := Refused
		if f.Evidence {
			class = Incomplete
		}
		a := pl.Availability
		return pl, &Failure{Failure: failure.Failure{Code: f.Code, Class: class, Next: append(f.Commands, publishCmd(opts.Force).Because("once every object can be fetched"))}, Availability: &a, Lines: append([]string{"cannot publish this state:"}, f.Lines...)}
	}
	var blocker *nostr.Event
	pl.NotBefore, blocker = notBefore(v, author, p.Now().Unix())
	if blocker != nil {
		why := "the largest time an event can carry: no state can be dated after it"
		if int64(blocker.CreatedAt) != math.MaxInt64 {
			why = fmt.Sprintf("more than %d minutes after this machine's clock: a state after it would be dated that far ahead, which relays refuse and which pushes every later state towards the largest time an event can carry (if the clock is wrong, fix it)", preflight.MaxFutureSkew/60)
		}
		return pl, &Failure{Failure: failure.Failure{Code: CodeBaseInTheFuture, Class: Refused}, Lines: []string{fmt.Sprintf("state event %s is dated created_at %d, %s", blocker.ID, int64(blocker.CreatedAt), why),
			"ask its author to delete it with a NIP-09 deletion request naming its id, then rerun"}}
	}
	pl.CreatedAt = max(p.Now().Unix(), pl.NotBefore)
	return pl, nil
}

// unchanged: the author's own resolved state already carries these refs
// and this default branch.
func (pl *Plan) unchanged() bool {
	return pl.Resolved != nil && pl.Resolved.Author == pl.Author && len(pl.Changes) == 0
}

func rewriteRefusal(pl *Plan) *Failure {
	code := CodeRefRemoved
	lines := []string{"publishing this checkout would rewrite the repository state:"}
	for _, r := range pl.Rewrites {
		if r.Action == "update" {
			code = CodeNotDescendant
		}
		lines = append(lines, "  "+preflight.RenderRefActions([]preflight.RefAction{r.RefAction})[0]+": "+r.Reason)
	}
	lines = append(lines, "bring those refs up to date (fetch and merge, or restore them), or replace the state deliberately with --force")
	losses := make([]preflight.RefAction, len(pl.Rewrites))
	for i, r := range pl.Rewrites {
		losses[i] = r.RefAction
	}
	words := preflight.ForceWords(losses, nil)
	lines = append(lines, words)
	cmds := []suggest.Command{}
	if len(pl.Remotes) > 0 {
		cmds = append(cmds, suggest.Git("fetch", pl.Remotes[0]).Because("get the resolved refs"))
	}
	cmds = append(cmds, suggest.Roster("repo", "state").Because("what to change in this checkout to match"),
		publishCmd(true).Because("replace the resolved refs with this checkout's: "+strings.TrimPrefix(words, "--force ")))
	return &Failure{Failure: failure.Failure{Code: code, Class: Refused, Next: cmds}, Lines: lines, Rewrites: pl.Rewrites, ForceWords: words}
}

// notBefore is one second after every candidate state event of the
// component (every kind 30618 event of a confirmed maintainer the
// discovery returned, the author's own included) and after the author's
// own deletion requests addressing their state coordinate; blocker is the
// newest one dated so far ahead that ours would be dated
// preflight.MaxFutureSkew or more after now (the int64 maximum included).
func notBefore(v *discovery.View, author string, now int64) (int64, *nostr.Event) {
	addr := graph.Coordinate{Kind: graph.KindState, Pubkey: author, Identifier: v.Coordinate().Identifier}.ATag()
	var floor int64
	var blocker *nostr.Event
	for _, e := range v.Events {
		candidate := e.Kind == graph.KindState && (v.Resolution.Confirmed(e.PubKey) || e.PubKey == author)
		ownDeletion := e.Kind == nostr.KindDeletion && e.PubKey == author && addresses(e, addr)
		if !candidate && !ownDeletion {
			continue
		}
		at := int64(e.CreatedAt)
		if at == math.MaxInt64 || now <= math.MaxInt64-preflight.MaxFutureSkew && at+1 > now+preflight.MaxFutureSkew {
			if blocker == nil || e.CreatedAt > blocker.CreatedAt {
				blocker = e
			}
			continue
		}
		floor = max(floor, at+1)
	}
	return floor, blocker
}

func addresses(e *nostr.Event, addr string) bool {
	for _, t := range e.Tags {
		if len(t) >= 2 && t[0] == "a" && t[1] == addr {
			return true
		}
	}
	return false
}

// publish signs, asks an aged cut again, delivers, reads back and
// re-resolves. left is the re-asks the recheck left.
func (p Pipeline) publish(ctx context.Context, out *Outcome, cut *relaypool.FetchResult, left *int) error {
	pl := out.Plan
	v := out.View
	// Dated at signing time, never before NotBefore.
	pl.CreatedAt = max(p.Now().Unix(), pl.NotBefore)
	evt := gitstate.StateEvent(v.Coordinate().Identifier, pl.Head, pl.Refs, pl.CreatedAt)
	if err := p.Signer.SignEvent(ctx, evt); err != nil {
		return stopped(ctx, out, pl.Forced, PhaseSigning, &SignerError{Err: err})
	}
	if evt.PubKey != pl.Author {
		return &Failure{Failure: failure.Failure{Code: CodeSignerMismatched, Class: Failed}, Outcome: out, Lines: []string{"the signer signed with a different key than it reported; nothing was published"}}
	}
	if err := ctx.Err(); err != nil {
		return stopped(ctx, out, pl.Forced, PhaseSigning, err)
	}
	out.Event = evt
	if err := p.journalBegin(out, evt); err != nil {
		return err
	}
	// Whatever aged the cut since the recheck (the signer, the journal's
	// sync) is asked again right before the send.
	cut, err := p.freshCut(ctx, out, cut, left)
	if err != nil {
		return stopped(ctx, out, pl.Forced, PhaseRechecking, err)
	}
	phase := PhasePublishing
	d := p.Relays.Deliver(ctx, v.PublishRelays(), evt, relaypool.DeliverOptions{BeforeReadBack: func() {
		phase = PhaseReadingBack
		if p.AfterPublish != nil {
			p.AfterPublish()
		}
	}, Answered: out.kept.Answered(0)})
	out.Delivery = d
	if ctx.Err() != nil {
		// Interrupted or past the deadline: say what was sent, verify
		// nothing more.
		return stoppedAfterSending(ctx, out, evt, phase)
	}
	if d.Accepted == 0 {
		return &Failure{Failure: failure.Failure{Code: CodePublishFailed, Class: Failed, Next: []suggest.Command{publishCmd(pl.Forced)}}, Outcome: out, Lines: []string{fmt.Sprintf("no relay accepted the state event %s; nothing was published", evt.ID)}}
	}
	problems := d.Problems()
	after, err := p.discover(ctx)
	if ctx.Err() != nil {
		return stoppedAfterSending(ctx, out, evt, PhaseVerifying)
	}
	if err != nil {
		problems = append(problems, "re-reading the repository failed: "+discovery.Why(err))
	} else {
		if d.ReadBack != nil {
			after = after.Including(d.ReadBack.Events)
		}
		out.After = after
		c, ps := confirm(evt, cut, after)
		if c == CodeSuperseded {
			return &Failure{Failure: failure.Failure{Code: CodeSuperseded, Class: Unverified, Next: []suggest.Command{suggest.Roster("repo", "state").Because("compare this checkout with the state that won"),
				publishCmd(pl.Forced).Because("once this checkout holds what you mean to publish")}}, Outcome: out, Problems: append(problems, ps...), Lines: []string{fmt.Sprintf("published state %s, but it was superseded:", evt.ID)}}
		}
		problems = append(problems, ps...)
	}
	if len(problems) > 0 {
		return &Failure{Failure: failure.Failure{Code: CodeUnverified, Class: Unverified, Next: []suggest.Command{suggest.Roster("repo", "state").Because("what the relays now resolve")}}, Outcome: out, Problems: problems, Lines: []string{fmt.Sprintf("published state %s, but verification did not complete:", evt.ID)}}
	}
	out.Verified = true
	return nil
}
