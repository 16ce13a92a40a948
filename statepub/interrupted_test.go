package statepub_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/statepub"
)

// cancellingRead is the real read that ends the command's context when
// the publication loads the repository for the n-th time (1: the
// discovery, 2: the re-read after publishing), before it loads.
type cancellingRead struct {
	discovery.Reader
	n      int
	loads  *int
	cancel context.CancelFunc
}

func (r cancellingRead) Load(ctx context.Context, need discovery.Evidence, now int64) (*discovery.View, error) {
	*r.loads++
	if *r.loads == r.n {
		r.cancel()
	}
	return r.Reader.Load(ctx, need, now)
}

// cancellingSigner ends the command's context while the signer is asked
// to sign (a bunker waiting for its user), and fails as a signer does
// then.
type cancellingSigner struct {
	signer.Signer
	cancel context.CancelFunc
}

func (s cancellingSigner) SignEvent(ctx context.Context, evt *nostr.Event) error {
	s.cancel()
	return ctx.Err()
}

// cancellingRelays ends the command's context as the state event is
// about to be sent, so no relay is written it.
type cancellingRelays struct {
	statepub.Relays
	cancel context.CancelFunc
}

func (r cancellingRelays) Deliver(ctx context.Context, relays []string, evt *nostr.Event, opts relaypool.DeliverOptions) *relaypool.Delivery {
	r.cancel()
	return r.Relays.Deliver(ctx, relays, evt, opts)
}

// Rule (an interrupt before the state event was sent anywhere publishes
// nothing, and says so): the command's context ends while the
// publication discovers, checks the Git servers, rechecks, signs or is
// about to send; each stops as `interrupted` (class Interrupted, exit
// 130), says "stopped while <phase>; nothing was published", offers the
// same `repo state publish` (with --force when it was forced), the relay
// keeps no state of Alice's and the journal keeps no unfinished write.
func TestAnInterruptBeforeTheStateIsSentSaysNothingWasPublished(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		phase string
		force bool
		arm   func(p *statepub.Pipeline, cancel context.CancelFunc)
	}{
		{statepub.PhaseDiscovering, false, func(p *statepub.Pipeline, cancel context.CancelFunc) {
			p.Read = cancellingRead{Reader: p.Read, n: 1, loads: new(int), cancel: cancel}
		}},
		{statepub.PhaseCheckingGit, true, func(p *statepub.Pipeline, cancel context.CancelFunc) {
			p.Availability = func(ctx context.Context, servers []gitstate.Server, oids map[string]string) gitstate.Availability {
				cancel()
				return gitstate.CheckAvailability(ctx, servers, oids)
			}
		}},
		{statepub.PhaseRechecking, false, func(p *statepub.Pipeline, cancel context.CancelFunc) { p.BeforeRecheck = cancel }},
		{statepub.PhaseSigning, false, func(p *statepub.Pipeline, cancel context.CancelFunc) {
			p.Signer = cancellingSigner{Signer: p.Signer, cancel: cancel}
		}},
		{statepub.PhasePublishing, true, func(p *statepub.Pipeline, cancel context.CancelFunc) {
			p.Relays = cancellingRelays{Relays: p.Relays, cancel: cancel}
		}},
	} {
		t.Run(strings.ReplaceAll(c.phase, " ", "-"), func(t *testing.T) {
			t.Parallel()
			s, p := newScene(t)
			j := journal.Open(t.TempDir())
			p.Journal = j
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c.arm(&p, cancel)
			_, err := p.Run(ctx, statepub.Options{Force: c.force})
			var f *statepub.Failure
			if !errors.As(err, &f) {
				t.Fatalf("got %v; want the publication's interrupted failure", err)
			}
			if f.Code != statepub.CodeInterrupted || f.Class != failure.Interrupted || f.Phase != c.phase || !errors.Is(f, context.Canceled) {
				t.Fatalf("code %q class %v phase %q err %v; want interrupted, class interrupted, phase %q", f.Code, f.Class, f.Phase, f.Err, c.phase)
			}
			if !strings.HasPrefix(f.Error(), "stopped while "+c.phase+"; ") || !strings.HasSuffix(f.Error(), "nothing was published") {
				t.Fatalf("message %q does not say where it stopped and that nothing was published", f.Error())
			}
			want := "roster repo state publish"
			if c.force {
				want += " --force"
			}
			if len(f.Next) != 1 || strings.Join(f.Next[0].Words(), " ") != want {
				t.Fatalf("next %v, want %q", f.Next, want)
			}
			if got := s.published(); len(got) != 0 {
				t.Fatalf("the relay keeps %d state events after an interrupt before sending", len(got))
			}
			if writes, _, _ := j.List(); len(writes) != 0 || f.Journal != "" {
				t.Fatalf("the journal keeps %d unfinished writes (failure names %q) of a publication that sent nothing", len(writes), f.Journal)
			}
		})
	}
}

// Rule (an interrupt after a relay accepted the state event never says
// nothing was published): the context ends once the relay accepted it,
// before the read-back, or while the repository is read again to verify
// it. The failure is `interrupted` with class Unverified (exit 6), names
// the event and the relay it was published to, says verification
// stopped, offers `roster repo state` first, and the journal keeps the
// unfinished write; the relay keeps the event.
func TestAnInterruptAfterTheRelayAcceptedTheStateSaysItWasPublished(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		phase string
		arm   func(p *statepub.Pipeline, cancel context.CancelFunc)
	}{
		{statepub.PhaseReadingBack, func(p *statepub.Pipeline, cancel context.CancelFunc) { p.AfterPublish = cancel }},
		{statepub.PhaseVerifying, func(p *statepub.Pipeline, cancel context.CancelFunc) {
			p.Read = cancellingRead{Reader: p.Read, n: 2, loads: new(int), cancel: cancel}
		}},
	} {
		t.Run(strings.ReplaceAll(c.phase, " ", "-"), func(t *testing.T) {
			t.Parallel()
			s, p := newScene(t)
			j := journal.Open(t.TempDir())
			p.Journal = j
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c.arm(&p, cancel)
			_, err := p.Run(ctx, statepub.Options{})
			var f *statepub.Failure
			if !errors.As(err, &f) {
				t.Fatalf("got %v; want the publication's interrupted failure", err)
			}
			stored := s.published()
			if len(stored) != 1 || f.Outcome == nil || f.Outcome.Event == nil || stored[0].ID != f.Outcome.Event.ID {
				t.Fatalf("the relay keeps %v; want the published state", stored)
			}
			id := stored[0].ID
			if f.Code != statepub.CodeInterrupted || f.Class != failure.Unverified || f.Phase != c.phase {
				t.Fatalf("code %q class %v phase %q; want interrupted, unverified, %q", f.Code, f.Class, f.Phase, c.phase)
			}
			msg := f.Error()
			if strings.Contains(msg, "nothing was published") || !strings.Contains(msg, "stopped while "+c.phase) ||
				!strings.Contains(msg, "state event "+id+" was published to 1 relay ("+s.relay.URL()+")") || !strings.Contains(msg, "verification stopped") {
				t.Fatalf("message %q; want the event published to the one relay and verification stopped", msg)
			}
			if len(f.Sent) != 1 || f.Sent[0] != s.relay.URL() {
				t.Fatalf("sent %v, want the relay", f.Sent)
			}
			if len(f.Next) == 0 || strings.Join(f.Next[0].Words(), " ") != "roster repo state" {
				t.Fatalf("next %v, want roster repo state first", f.Next)
			}
			if writes, _, _ := j.List(); len(writes) != 1 || f.Journal != writes[0].ID {
				t.Fatalf("journal %v (failure names %q); want the unfinished write kept", writes, f.Journal)
			}
		})
	}
}
