package clitest

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

// CheckoutSelecting is an empty Git checkout whose nostr.repo is naddr,
// as `roster repo checkout` or a clone leaves it.
func CheckoutSelecting(t *testing.T, naddr string) (string, *gitstate.Checkout) {
	t.Helper()
	dir := t.TempDir()
	GitInit(t, dir)
	co, err := gitstate.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := co.SetNostrRepo(naddr); err != nil {
		t.Fatal(err)
	}
	return dir, co
}

// Person is a test identity with a deterministic key.
type Person struct {
	Name   string
	Sk, Pk string
}

func NewPerson(name string) Person {
	sk := testkeys.Named("roster test key ", name)
	pk, err := nostr.GetPublicKey(sk)
	if err != nil {
		panic(err)
	}
	return Person{Name: name, Sk: sk, Pk: pk}
}

func (p Person) Npub() string {
	n, _ := nip19.EncodePublicKey(p.Pk)
	return n
}

func (p Person) Coord(id string) graph.Coordinate { return graph.NewCoordinate(p.Pk, id) }

// Naddr is the --repo value selecting p's coordinate.
func (p Person) Naddr(id string) string { return gitstate.EncodeNaddr(p.Coord(id), nil) }

var (
	Alice = NewPerson("alice")
	Bob   = NewPerson("bob")
	Carol = NewPerson("carol")
	Dave  = NewPerson("dave")
	Erin  = NewPerson("erin")
)

// Sign builds and signs an event by p.
func (p Person) Sign(t testing.TB, kind int, created int64, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: kind, CreatedAt: nostr.Timestamp(created), Tags: nostr.Tags(tags), Content: ""}
	if err := evt.Sign(p.Sk); err != nil {
		t.Fatalf("sign: %v", err)
	}
	return evt
}

// Announce is p's kind 30617 announcement of id with extra tags.
func (p Person) Announce(t testing.TB, id string, created int64, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	return p.Sign(t, graph.KindAnnouncement, created, append([]nostr.Tag{{"d", id}, {"name", "Test " + id}}, tags...)...)
}

// State is p's kind 30618 state event with HEAD on main.
func (p Person) State(t testing.TB, id string, created int64, mainOID string) *nostr.Event {
	t.Helper()
	return p.Sign(t, graph.KindState, created, nostr.Tag{"d", id}, nostr.Tag{"HEAD", "ref: refs/heads/main"},
		nostr.Tag{"refs/heads/main", mainOID})
}

func Role(letter string, who Person, bounds ...string) nostr.Tag {
	return append(nostr.Tag{letter, who.Pk}, bounds...)
}

func MaintainersTag(ps ...Person) nostr.Tag {
	t := nostr.Tag{"maintainers"}
	for _, p := range ps {
		t = append(t, p.Pk)
	}
	return t
}

// LeadShaped is the spec's normal repository: Alice leads and lists Bob
// (confirmed), Carol (invited) and Dave as moderator; Bob accepted; Dave
// acknowledged his moderator role; Bob published the state.
func LeadShaped(t testing.TB, id string) []*nostr.Event {
	t.Helper()
	return []*nostr.Event{
		Alice.Announce(t, id, 1000, Role("M", Alice), Role("m", Bob, "200"), Role("m", Carol, "300"), Role("o", Dave, "400"),
			MaintainersTag(Alice, Bob, Carol)),
		Bob.Announce(t, id, 1001, Role("M", Alice, "200"), Role("m", Bob, "200"), MaintainersTag(Alice, Bob)),
		Dave.Announce(t, id, 1002, Role("o", Dave, "400"), MaintainersTag()),
		Bob.State(t, id, 1003, strings.Repeat("ab", 20)),
	}
}

// Publish sends events to a relay the way any client would, and fails the
// test unless the relay accepts each one.
func Publish(t testing.TB, url string, events ...*nostr.Event) {
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

// TestEnv is an environment with its own roster home and nobody signed in.
func TestEnv(t testing.TB) map[string]string {
	return map[string]string{"ROSTER_HOME": t.TempDir(), "HOME": t.TempDir()}
}

// WithKey returns env plus ROSTER_SECRET_KEY for p (the viewer).
func WithKey(env map[string]string, p Person) map[string]string {
	out := map[string]string{}
	for k, v := range env {
		out[k] = v
	}
	out["ROSTER_SECRET_KEY"] = p.Sk
	return out
}

// RelayArgs is --relay for each relay.
func RelayArgs(relays []*devrelay.Relay) []string {
	var out []string
	for _, r := range relays {
		out = append(out, "--relay", r.URL())
	}
	return out
}

// repoJSON runs `roster repo --json` and decodes roster.repo/v2.
func RepoJSONRun(t *testing.T, inv Invocation, args ...string) (map[string]any, Result) {
	t.Helper()
	r := inv.Roster(t, append([]string{"repo", "--json", "--timeout", "3s"}, args...)...)
	var m map[string]any
	if r.Code == cmdutil.ExitOK {
		if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
			t.Fatalf("stdout is not JSON (%v):\n%s\nstderr: %s", err, r.Out, r.Err)
		}
	}
	return m, r
}

// MemberStatuses maps npub -> status from a maintainers/moderators array.
func MemberStatuses(t *testing.T, v any) map[string]string {
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

// RelayStatuses maps url -> status from the relays array.
func RelayStatuses(t *testing.T, v any) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, x := range v.([]any) {
		m := x.(map[string]any)
		out[m["url"].(string)] = m["status"].(string)
	}
	return out
}

// JsonEqual compares two decoded JSON values.
func JsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
