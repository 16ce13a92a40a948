package main

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
	pcOwnerSK    = strings.Repeat("21", 32)
	pcAdminSK    = strings.Repeat("22", 32)
	pcStrangerSK = strings.Repeat("23", 32)
	pcRelaySK    = strings.Repeat("24", 32) // lets tests play a misbehaving relay
)

const (
	pcHome  = "99999999-9999-4999-8999-999999999999"
	pcChanA = "11111111-1111-4111-8111-111111111111"
	pcChanB = "22222222-2222-4222-8222-222222222222"
	pcChanC = "33333333-3333-4333-8333-333333333333"
)

// pcWorld is one devrelay running the NIP-PC and NIP-29 reference authorities.
type pcWorld struct {
	t     *testing.T
	relay *devrelay.Relay
	coord projects.Coordinate
	// beforeSign is given to every invocation (seams.projectBeforeSign).
	beforeSign func(attempt int)
	http       *http.Client // NIP-05 lookups (nip05Server), nil for none
}

func newPCWorld(t *testing.T) *pcWorld { return newPCWorldWith(t, false) }

// newPCWorldWith optionally makes the relay demand NIP-42 for every read and write.
func newPCWorldWith(t *testing.T, requireAuth bool) *pcWorld {
	t.Helper()
	g := grouprelay.New()
	pc := pcrelay.New(pcrelay.Options{Groups: g})
	r := devrelay.StartN(t, 1, devrelay.Options{SecretKey: pcRelaySK, RequireAuth: requireAuth, Authorities: []devrelay.Authority{pc, g}})[0]
	return &pcWorld{t: t, relay: r, coord: projects.Coordinate{Owner: pubOf(t, pcOwnerSK), D: "demo:with:colons"}}
}

// publish signs evt with sk and hands it to the relay as a client
// authenticated as that key would.
func (w *pcWorld) publish(sk string, evt *nostr.Event) error {
	w.t.Helper()
	if err := evt.Sign(sk); err != nil {
		w.t.Fatal(err)
	}
	return w.relay.PublishAs(evt.PubKey, evt)
}

func (w *pcWorld) mustPublish(sk string, evt *nostr.Event) {
	w.t.Helper()
	if err := w.publish(sk, evt); err != nil {
		w.t.Fatalf("kind %d: %v", evt.Kind, err)
	}
}

// identity publishes the owner's kind 30621 at created_at at.
func (w *pcWorld) identity(at nostr.Timestamp, tags ...nostr.Tag) {
	w.t.Helper()
	w.mustPublish(pcOwnerSK, &nostr.Event{Kind: 30621, CreatedAt: at, Tags: append(nostr.Tags{{"d", w.coord.D}, {"name", "Demo"}}, tags...)})
}

// group sends one NIP-29 moderation event for the home channel.
func (w *pcWorld) group(sk string, kind int, tags ...nostr.Tag) {
	w.t.Helper()
	w.mustPublish(sk, &nostr.Event{Kind: kind, CreatedAt: nostr.Now(), Tags: append(nostr.Tags{{"h", pcHome}}, tags...)})
}

// relateFirst publishes, as the owner, a change relating channel against
// the current revision at created_at at: another client's change landing
// just before roster signs its own. Failures are reported with Error, as
// in the beforeSign hooks that call it.
func (w *pcWorld) relateFirst(channel string, at nostr.Timestamp) {
	w.t.Helper()
	p, _ := projects.NewPatch([]string{channel}, nil)
	evt, err := projects.BuildChange(w.coord, w.stored().Revision, p, at)
	if err != nil {
		w.t.Error(err)
		return
	}
	if err := w.publish(pcOwnerSK, evt); err != nil {
		w.t.Error(err)
	}
}

// stored returns the relay's current projection, verified as a client would.
func (w *pcWorld) stored() projects.State {
	w.t.Helper()
	evs := w.relay.Stored(nostr.Filter{Kinds: []int{30623}, Tags: nostr.TagMap{"d": {w.coord.Address()}}})
	st, found, err := projects.FromRelay(evs, w.coord, w.relay.Self())
	if err != nil || !found {
		w.t.Fatalf("stored projection: found=%v %v", found, err)
	}
	return st
}

func (w *pcWorld) storedCommands() int {
	return len(w.relay.Stored(nostr.Filter{Kinds: []int{47010}}))
}

// as runs roster with sk as ROSTER_SECRET_KEY against the world's relay.
func (w *pcWorld) as(sk string, args ...string) result {
	w.t.Helper()
	env := map[string]string{"ROSTER_SECRET_KEY": sk, "ROSTER_HOME": w.t.TempDir()}
	return invocation{Env: env, Seams: cmdutil.Seams{ProjectBeforeSign: w.beforeSign, Http: w.http}}.roster(w.t, append(args, "--relay", w.relay.URL(), "--timeout", "5s")...)
}
