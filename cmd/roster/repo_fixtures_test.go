package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// checkoutSelecting is an empty Git checkout whose nostr.repo is naddr,
// as `roster repo checkout` or a clone leaves it.
func checkoutSelecting(t *testing.T, naddr string) (string, *gitstate.Checkout) {
	t.Helper()
	dir := t.TempDir()
	gitInit(t, dir)
	co, err := gitstate.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := co.SetNostrRepo(naddr); err != nil {
		t.Fatal(err)
	}
	return dir, co
}

// person is a test identity with a deterministic key.
type person struct {
	name   string
	sk, pk string
}

func newPerson(name string) person {
	sk := testkeys.Named("roster test key ", name)
	pk, err := nostr.GetPublicKey(sk)
	if err != nil {
		panic(err)
	}
	return person{name: name, sk: sk, pk: pk}
}

func (p person) npub() string {
	n, _ := nip19.EncodePublicKey(p.pk)
	return n
}

func (p person) coord(id string) graph.Coordinate { return graph.NewCoordinate(p.pk, id) }

// naddr is the --repo value selecting p's coordinate.
func (p person) naddr(id string) string { return gitstate.EncodeNaddr(p.coord(id), nil) }

var (
	alice = newPerson("alice")
	bob   = newPerson("bob")
	carol = newPerson("carol")
	dave  = newPerson("dave")
	erin  = newPerson("erin")
)

// sign builds and signs an event by p.
func (p person) sign(t testing.TB, kind int, created int64, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: kind, CreatedAt: nostr.Timestamp(created), Tags: nostr.Tags(tags), Content: ""}
	if err := evt.Sign(p.sk); err != nil {
		t.Fatalf("sign: %v", err)
	}
	return evt
}

// announce is p's kind 30617 announcement of id with extra tags.
func (p person) announce(t testing.TB, id string, created int64, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	return p.sign(t, graph.KindAnnouncement, created, append([]nostr.Tag{{"d", id}, {"name", "Test " + id}}, tags...)...)
}

// state is p's kind 30618 state event with HEAD on main.
func (p person) state(t testing.TB, id string, created int64, mainOID string) *nostr.Event {
	t.Helper()
	return p.sign(t, graph.KindState, created, nostr.Tag{"d", id}, nostr.Tag{"HEAD", "ref: refs/heads/main"},
		nostr.Tag{"refs/heads/main", mainOID})
}

func role(letter string, who person, bounds ...string) nostr.Tag {
	return append(nostr.Tag{letter, who.pk}, bounds...)
}

func maintainersTag(ps ...person) nostr.Tag {
	t := nostr.Tag{"maintainers"}
	for _, p := range ps {
		t = append(t, p.pk)
	}
	return t
}

// leadShaped is the spec's normal repository: Alice leads and lists Bob
// (confirmed), Carol (invited) and Dave as moderator; Bob accepted; Dave
// acknowledged his moderator role; Bob published the state.
func leadShaped(t testing.TB, id string) []*nostr.Event {
	t.Helper()
	return []*nostr.Event{
		alice.announce(t, id, 1000, role("M", alice), role("m", bob, "200"), role("m", carol, "300"), role("o", dave, "400"),
			maintainersTag(alice, bob, carol)),
		bob.announce(t, id, 1001, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)),
		dave.announce(t, id, 1002, role("o", dave, "400"), maintainersTag()),
		bob.state(t, id, 1003, strings.Repeat("ab", 20)),
	}
}

// publish sends events to a relay the way any client would, and fails the
// test unless the relay accepts each one.
func publish(t testing.TB, url string, events ...*nostr.Event) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := nostr.RelayConnect(ctx, url)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	defer r.Close()
	for _, e := range events {
		if err := r.Publish(ctx, *e); err != nil {
			t.Fatalf("publish %s to %s: %v", e.ID, url, err)
		}
	}
}

// testEnv is an environment with its own roster home and nobody signed in.
func testEnv(t testing.TB) map[string]string {
	return map[string]string{"ROSTER_HOME": t.TempDir(), "HOME": t.TempDir()}
}

// withKey returns env plus ROSTER_SECRET_KEY for p (the viewer).
func withKey(env map[string]string, p person) map[string]string {
	out := map[string]string{}
	for k, v := range env {
		out[k] = v
	}
	out["ROSTER_SECRET_KEY"] = p.sk
	return out
}

// relayArgs is --relay for each relay.
func relayArgs(relays []*devrelay.Relay) []string {
	var out []string
	for _, r := range relays {
		out = append(out, "--relay", r.URL())
	}
	return out
}

// repoJSON runs `roster repo --json` and decodes roster.repo/v2.
func repoJSONRun(t *testing.T, inv invocation, args ...string) (map[string]any, result) {
	t.Helper()
	r := inv.roster(t, append([]string{"repo", "--json", "--timeout", "3s"}, args...)...)
	var m map[string]any
	if r.Code == cmdutil.ExitOK {
		if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
			t.Fatalf("stdout is not JSON (%v):\n%s\nstderr: %s", err, r.Out, r.Err)
		}
	}
	return m, r
}

// memberStatuses maps npub -> status from a maintainers/moderators array.
func memberStatuses(t *testing.T, v any) map[string]string {
	t.Helper()
	out := map[string]string{}
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("not an array: %#v", v)
	}
	for _, x := range list {
		m := x.(map[string]any)
		out[m["npub"].(string)] = m["status"].(string)
	}
	return out
}

// relayStatuses maps url -> status from the relays array.
func relayStatuses(t *testing.T, v any) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, x := range v.([]any) {
		m := x.(map[string]any)
		out[m["url"].(string)] = m["status"].(string)
	}
	return out
}

// jsonEqual compares two decoded JSON values.
func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
