package clitest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/devrelay/pcrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/workspace/projects"
)

// Keys of the project scenarios: the owner, a home-channel admin, a stranger.
var (
	PcOwnerSK    = strings.Repeat("21", 32)
	PcAdminSK    = strings.Repeat("22", 32)
	PcStrangerSK = strings.Repeat("23", 32)
	PcRelaySK    = strings.Repeat("24", 32) // lets tests play a misbehaving relay
)

const (
	PcHome  = "99999999-9999-4999-8999-999999999999"
	PcChanA = "11111111-1111-4111-8111-111111111111"
	PcChanB = "22222222-2222-4222-8222-222222222222"
	PcChanC = "33333333-3333-4333-8333-333333333333"
)

// PcWorld is one devrelay running the NIP-PC and NIP-29 reference authorities.
type PcWorld struct {
	T     *testing.T
	Relay *devrelay.Relay
	Coord projects.Coordinate
	// BeforeSign is given to every invocation (seams.projectBeforeSign).
	BeforeSign func(attempt int)
	Http       *http.Client // NIP-05 lookups (nip05Server), nil for none
}

func NewPCWorld(t *testing.T) *PcWorld { return NewPCWorldWith(t, false) }

// NewPCWorldWith optionally makes the relay demand NIP-42 for every read and write.
func NewPCWorldWith(t *testing.T, requireAuth bool) *PcWorld {
	t.Helper()
	g := grouprelay.New()
	pc := pcrelay.New(pcrelay.Options{Groups: g})
	r := devrelay.StartN(t, 1, devrelay.Options{SecretKey: PcRelaySK, RequireAuth: requireAuth, Authorities: []devrelay.Authority{pc, g}})[0]
	return &PcWorld{T: t, Relay: r, Coord: projects.Coordinate{Owner: PubOf(t, PcOwnerSK), D: "demo:with:colons"}}
}

// Publish signs evt with sk and hands it to the relay as a client
// authenticated as that key would.
func (w *PcWorld) Publish(sk string, evt *nostr.Event) error {
	w.T.Helper()
	if err := evt.Sign(sk); err != nil {
		w.T.Fatal(err)
	}
	return w.Relay.PublishAs(evt.PubKey, evt)
}

func (w *PcWorld) MustPublish(sk string, evt *nostr.Event) {
	w.T.Helper()
	if err := w.Publish(sk, evt); err != nil {
		w.T.Fatalf("kind %d: %v", evt.Kind, err)
	}
}

// Identity publishes the owner's kind 30621 at created_at at.
func (w *PcWorld) Identity(at nostr.Timestamp, tags ...nostr.Tag) {
	w.T.Helper()
	w.MustPublish(PcOwnerSK, &nostr.Event{Kind: 30621, CreatedAt: at, Tags: append(nostr.Tags{{"d", w.Coord.D}, {"name", "Demo"}}, tags...)})
}

// Group sends one NIP-29 moderation event for the home channel.
func (w *PcWorld) Group(sk string, kind int, tags ...nostr.Tag) {
	w.T.Helper()
	w.MustPublish(sk, &nostr.Event{Kind: kind, CreatedAt: nostr.Now(), Tags: append(nostr.Tags{{"h", PcHome}}, tags...)})
}

// RelateFirst publishes, as the owner, a change relating channel against
// the current revision at created_at at: another client's change landing
// just before roster signs its own. Failures are reported with Error, as
// in the beforeSign hooks that call it.
func (w *PcWorld) RelateFirst(channel string, at nostr.Timestamp) {
	w.T.Helper()
	p, _ := projects.NewPatch([]string{channel}, nil)
	evt, err := projects.BuildChange(w.Coord, w.Stored().Revision, p, at)
	if err != nil {
		w.T.Error(err)
		return
	}
	if err := w.Publish(PcOwnerSK, evt); err != nil {
		w.T.Error(err)
	}
}

// Stored returns the relay's current projection, verified as a client would.
func (w *PcWorld) Stored() projects.State {
	w.T.Helper()
	evs := w.Relay.Stored(nostr.Filter{Kinds: []int{30623}, Tags: nostr.TagMap{"d": {w.Coord.Address()}}})
	st, found, err := projects.FromRelay(evs, w.Coord, w.Relay.Self())
	if err != nil || !found {
		w.T.Fatalf("stored projection: found=%v %v", found, err)
	}
	return st
}

func (w *PcWorld) StoredCommands() int {
	return len(w.Relay.Stored(nostr.Filter{Kinds: []int{47010}}))
}

// As runs roster with sk as ROSTER_SECRET_KEY against the world's relay.
func (w *PcWorld) As(sk string, args ...string) Result {
	w.T.Helper()
	env := map[string]string{"ROSTER_SECRET_KEY": sk, "ROSTER_HOME": w.T.TempDir()}
	return Invocation{Env: env, Seams: cmdutil.Seams{ProjectBeforeSign: w.BeforeSign, Http: w.Http}}.Roster(w.T, append(args, "--relay", w.Relay.URL(), "--timeout", "5s")...)
}
