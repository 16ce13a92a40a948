package pcrelay

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/workspace/projects"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// Keys become public keys and signed events the same way in every NIP-PC
// and NIP-29 test package.
var pub, sign = testkeys.Pub, testkeys.Sign

var (
	relaySK = strings.Repeat("01", 32)
	ownerSK = strings.Repeat("02", 32)
	adminSK = strings.Repeat("03", 32)
	otherSK = strings.Repeat("04", 32)
)

const (
	home  = "99999999-9999-4999-8999-999999999999"
	chanA = "11111111-1111-4111-8111-111111111111"
	chanB = "22222222-2222-4222-8222-222222222222"
	chanC = "33333333-3333-4333-8333-333333333333"
)

// fixture is one authority with a NIP-29 home-channel source and a clock the
// test controls.
type fixture struct {
	t      *testing.T
	pc     *Authority
	groups *grouprelay.Authority
	env    devrelay.Env
	now    nostr.Timestamp
	// kept is what the relay core stored of the emitted events, by id;
	// dropNext makes the core fail to store the next ingest's projection.
	mu       sync.Mutex // ingest runs concurrently in one test
	kept     map[string]*nostr.Event
	dropNext bool
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, groups: grouprelay.New(), now: 1700000000, kept: map[string]*nostr.Event{}}
	f.pc = New(Options{Groups: f.groups})
	f.env = devrelay.Env{
		Self:      pub(t, relaySK),
		Sign:      func(e *nostr.Event) error { return e.Sign(relaySK) },
		Community: "relay.test",
		Now:       func() nostr.Timestamp { return f.now },
		Query: func(_ context.Context, flt nostr.Filter) []*nostr.Event {
			f.mu.Lock()
			defer f.mu.Unlock()
			var out []*nostr.Event
			for _, e := range f.kept {
				if flt.Matches(e) {
					out = append(out, e)
				}
			}
			return out
		},
		Evict: func(string) {},
	}
	return f
}

// ingest hands evt to the authority as the relay core does and keeps the
// emitted events, except a projection the test told the core to drop.
func (f *fixture) ingest(authed string, evt *nostr.Event) ([]*nostr.Event, error) {
	out, err := f.pc.Ingest(context.Background(), f.env, authed, evt)
	f.mu.Lock()
	defer f.mu.Unlock()
	drop := f.dropNext
	f.dropNext = false
	for _, e := range out {
		if drop && e.Kind == projects.KindState {
			continue
		}
		f.kept[e.ID] = e
	}
	return out, err
}

func (f *fixture) coord() projects.Coordinate {
	return projects.Coordinate{Owner: pub(f.t, ownerSK), D: "demo"}
}

// identity publishes the owner's kind 30621 with extra tags at created_at at.
func (f *fixture) identity(at nostr.Timestamp, tags ...nostr.Tag) ([]*nostr.Event, error) {
	e := sign(f.t, ownerSK, &nostr.Event{Kind: 30621, CreatedAt: at, Tags: append(nostr.Tags{{"d", "demo"}}, tags...)})
	return f.ingest("", e)
}

// changeEvent signs a 47010 by sk against expected.
func (f *fixture) changeEvent(sk string, expected int64, add, remove []string) *nostr.Event {
	f.t.Helper()
	p, err := projects.NewPatch(add, remove)
	if err != nil {
		f.t.Fatal(err)
	}
	e, err := projects.BuildChange(f.coord(), expected, p, f.now)
	if err != nil {
		f.t.Fatal(err)
	}
	return sign(f.t, sk, e)
}

func (f *fixture) change(sk string, expected int64, add, remove []string) ([]*nostr.Event, error) {
	e := f.changeEvent(sk, expected, add, remove)
	return f.ingest(e.PubKey, e)
}

// group runs NIP-29 moderation through the group authority.
func (f *fixture) group(sk string, kind int, tags ...nostr.Tag) {
	f.t.Helper()
	e := sign(f.t, sk, &nostr.Event{Kind: kind, CreatedAt: f.now, Tags: append(nostr.Tags{{"h", home}}, tags...)})
	if _, err := f.groups.Ingest(context.Background(), f.env, e.PubKey, e); err != nil {
		f.t.Fatalf("kind %d: %v", kind, err)
	}
}

// state verifies the projection among emitted events with the client rules.
func (f *fixture) state(emitted []*nostr.Event) projects.State {
	f.t.Helper()
	for _, e := range emitted {
		if e.Kind == projects.KindState {
			st, err := projects.VerifyState(e, f.coord(), pub(f.t, relaySK))
			if err != nil {
				f.t.Fatalf("relay emitted a projection clients reject: %v\n%v", err, e)
			}
			return st
		}
	}
	f.t.Fatalf("no projection emitted in %v", emitted)
	return projects.State{}
}

func (f *fixture) must(emitted []*nostr.Event, err error) []*nostr.Event {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
	return emitted
}

func wantPrefix(t *testing.T, err error, prefix string) {
	t.Helper()
	if err == nil || !strings.HasPrefix(err.Error(), prefix) {
		t.Fatalf("got %v, want an error starting %q", err, prefix)
	}
}
