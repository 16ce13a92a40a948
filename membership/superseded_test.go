package membership

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// releasedAfterVerifying makes w's fourth read (discover, recheck, the
// re-read that verifies, then the last re-read after the cut window) see
// the announcement next() returns, as a relay releasing another machine's
// edit inside the window would.
func releasedAfterVerifying(p *Pipeline, w *world, next func() *nostr.Event) *int {
	reads := 0
	p.Read = readFuncs{load: func(ctx context.Context) (*discovery.View, error) {
		reads++
		if reads == 4 {
			w.events = append(w.events, next())
		}
		return w.view(ctx)
	}}
	return &reads
}

// Rule (no silent lost update: after verifying, re-read once more after the
// cut window): a newer version of the coordinate that lacks the change,
// released after the verification read, is exit 6 `superseded` naming it,
// with the intent to rerun first; nothing is signed again.
func TestAnEditReleasedAfterVerifyingThatLacksTheChangeIsSuperseded(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	p := w.pipeline(t)
	var winner *nostr.Event
	reads := releasedAfterVerifying(&p, w, func() *nostr.Event {
		winner = announce(t, aliceSK, 2001, nostr.Tag{"description", "another machine's edit"})
		return winner
	})
	out, err := p.Run(context.Background(), addBob(t), false)
	var f *Failure
	if !errors.As(err, &f) || f.Code != KindSuperseded || f.Superseded["ws://r"] != winner.ID {
		t.Fatalf("%+v %v, want superseded by %s", out, err, winner.ID)
	}
	if *reads != 4 || len(w.published) != 1 || f.Outcome.Verified || len(f.Outcome.Published) != 1 {
		t.Fatalf("reads %d, published %d, verified %v", *reads, len(w.published), f.Outcome.Verified)
	}
	if !strings.Contains(f.Msg, winner.ID) || len(f.Next) == 0 || !strings.Contains(f.Next[0].Line(), "--add-maintainer") {
		t.Fatalf("message %q commands %v: want the winner named and the rerun first", f.Msg, f.Next)
	}
}

// Rule (a later edit built on ours is not a lost update): a newer version
// that carries the change (the same role record, another field changed) and
// a newer edit elsewhere that leaves its effect in place keep the change
// verified, exit 0.
func TestANewerVersionCarryingTheChangeKeepsItVerified(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	p := w.pipeline(t)
	reads := releasedAfterVerifying(&p, w, func() *nostr.Event {
		mine := w.published[0]
		tags := append(nostr.Tags{}, mine.Tags...)
		tags = append(tags, nostr.Tag{"description", "built on it"})
		return testkeys.Sign(t, aliceSK, &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: mine.CreatedAt + 1, Tags: tags})
	})
	out, err := p.Run(context.Background(), addBob(t), false)
	if err != nil || !out.Verified || *reads != 4 {
		t.Fatalf("%+v %v (reads %d), want verified", out, err, *reads)
	}
}

// Rule (one home writes one coordinate at a time): the change takes the
// home's lock on the address it replaces before its recheck and holds it
// through the last re-read; a lock another command keeps is exit 3
// concurrent-change with nothing published.
func TestTheHomesLockIsHeldFromTheRecheckToTheLastReread(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	p := w.pipeline(t)
	var log []string
	p.Lock = func(_ context.Context, address string) (func(), error) {
		log = append(log, "lock "+address)
		return func() { log = append(log, "unlock") }, nil
	}
	discover := p.Read.(readFuncs).load
	p.Read = readFuncs{load: func(ctx context.Context) (*discovery.View, error) {
		log = append(log, "read")
		return discover(ctx)
	}}
	if out, err := p.Run(context.Background(), addBob(t), false); err != nil || !out.Verified {
		t.Fatalf("%+v %v", out, err)
	}
	want := fmt.Sprintf("read,lock 30617:%s:%s,read,read,read,unlock", testkeys.Pub(t, aliceSK), repoID)
	if got := strings.Join(log, ","); got != want {
		t.Fatalf("%s, want %s (the discovery unlocked; the recheck, the verification and the last re-read locked)", got, want)
	}

	w = &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	p = w.pipeline(t)
	p.Lock = func(context.Context, string) (func(), error) { return nil, ErrLocked }
	_, err := p.Run(context.Background(), addBob(t), false)
	var f *Failure
	if !errors.As(err, &f) || f.Code != KindConcurrentChange || len(w.published) != 0 || !strings.Contains(f.Msg, "nothing was published") {
		t.Fatalf("%v (published %d), want concurrent-change with nothing published", err, len(w.published))
	}
}

// Rule: the effects a change previews are what the last re-read checks:
// an invitation that is gone, or a confirmation undone, is lost; the
// invitee confirmed since is not.
func TestLostEffectsAreThePreviewsEffectsNoLongerInEffect(t *testing.T) {
	alice, bob := testkeys.Pub(t, aliceSK), testkeys.Pub(t, bobSK)
	c := graph.NewCoordinate(alice, repoID)
	invited := graph.Resolve([]*nostr.Event{announce(t, aliceSK, 100, nostr.Tag{"m", bob, "150"})}, c, 2000, graph.Options{})
	none := graph.Resolve([]*nostr.Event{announce(t, aliceSK, 100)}, c, 2000, graph.Options{})
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	out, err := w.pipeline(t).Run(context.Background(), addBob(t), true)
	if err != nil || out.Plan == nil || len(out.Plan.Sim.NewlyInvited) != 1 {
		t.Fatalf("%+v %v", out, err)
	}
	if lost := LostEffects(out.Plan, invited); len(lost) != 0 {
		t.Fatalf("an invitation in effect reported lost: %v", lost)
	}
	if lost := LostEffects(out.Plan, none); len(lost) != 1 || !strings.Contains(lost[0], "is not invited") {
		t.Fatalf("lost %v, want bob not invited", lost)
	}
}
