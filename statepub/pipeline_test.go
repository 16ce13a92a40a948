package statepub_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/statepub"
)

// scene is Alice, the lone maintainer of "widgets", on one in-process
// relay: her checkout has one commit on main, pushed to a bare repository
// her announcement advertises (file://), and no state is published yet.
type scene struct {
	relay     *devrelay.Relay
	secret    string
	alice     string
	head      string
	published func() []*nostr.Event
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func newScene(t *testing.T) (*scene, statepub.Pipeline) {
	t.Helper()
	sum := sha256.Sum256([]byte("statepub test alice"))
	s := &scene{secret: hex.EncodeToString(sum[:])}
	s.alice, _ = nostr.GetPublicKey(s.secret)
	dir, bare := t.TempDir(), filepath.Join(t.TempDir(), "widgets.git")
	run(t, dir, "init", "-q")
	run(t, dir, "commit", "-q", "--allow-empty", "-m", "one")
	s.head = run(t, dir, "rev-parse", "HEAD")
	run(t, dir, "clone", "-q", "--bare", dir, bare)

	relay, err := devrelay.New(devrelay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := relay.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(relay.Close)
	s.relay = relay
	ann := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: nostr.Timestamp(time.Now().Unix() - 60),
		Tags: nostr.Tags{{"d", "widgets"}, {"name", "Widgets"}, {"clone", "file://" + bare}, {"relays", relay.URL()}, {"M", s.alice}, {"maintainers", s.alice}}}
	if err := ann.Sign(s.secret); err != nil {
		t.Fatal(err)
	}
	if err := relay.Publish(ann); err != nil {
		t.Fatal(err)
	}
	s.published = func() []*nostr.Event {
		return relay.Stored(nostr.Filter{Kinds: []int{graph.KindState}, Authors: []string{s.alice}})
	}

	co, err := gitstate.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	key, err := signer.NewKeySigner(s.secret, "test")
	if err != nil {
		t.Fatal(err)
	}
	src := discovery.Source{Relays: []string{relay.URL()}, Pinned: true,
		Pool: func() *relaypool.Pool { return relaypool.New(relaypool.Options{Timeout: 5 * time.Second}) }}
	sel := gitstate.Selection{Coordinate: graph.NewCoordinate(s.alice, "widgets")}
	return s, statepub.Pipeline{
		Read:         discovery.Query{Source: src, Selection: sel, Checkout: co, Viewer: s.alice}.Write(),
		Relays:       relaypool.Fresh(src.Pool),
		Now:          time.Now,
		Signer:       key,
		Availability: gitstate.CheckAvailability,
	}
}

// other is a state of Alice's published from another machine, dated at.
func (s *scene) other(t *testing.T, at int64) *nostr.Event {
	t.Helper()
	e := gitstate.StateEvent("widgets", "ref: refs/heads/main", map[string]string{"refs/heads/main": s.head, "refs/heads/other": s.head}, at)
	if err := e.Sign(s.secret); err != nil {
		t.Fatal(err)
	}
	if err := s.relay.Publish(e); err != nil {
		t.Fatal(err)
	}
	return e
}

// Rule (the publication is checked against what it read): the checkout's
// main, its objects on the advertised server, published, read back and
// resolved as the state in effect; the relay keeps exactly it.
func TestAStatePublicationIsVerifiedAgainstTheRelay(t *testing.T) {
	t.Parallel()
	s, p := newScene(t)
	out, err := p.Run(context.Background(), statepub.Options{})
	if err != nil {
		t.Fatalf("publish: %v", err)
	}
	if !out.Verified || out.Event == nil || out.Plan.Availability.Verdict != gitstate.Available {
		t.Fatalf("verified %v event %v availability %v", out.Verified, out.Event, out.Plan.Availability.Verdict)
	}
	if got := s.published(); len(got) != 1 || got[0].ID != out.Event.ID || !got[0].Tags.ContainsAny("refs/heads/main", []string{s.head}) {
		t.Fatalf("the relay keeps %v, want the published state naming main at %s", got, s.head)
	}
}

// Rule (the recheck before signing): a state the preview did not see,
// published between the plan and the recheck, stops the publication as a
// concurrent change (refused, exit 3) and nothing of this run is stored.
func TestAStateChangedBeforeTheRecheckIsAConcurrentChange(t *testing.T) {
	t.Parallel()
	s, p := newScene(t)
	var theirs *nostr.Event
	p.BeforeRecheck = func() { theirs = s.other(t, time.Now().Unix()) }
	_, err := p.Run(context.Background(), statepub.Options{})
	f := failure.Of(err)
	if f == nil || f.Code != "concurrent-change" || f.Class != failure.Refused || !strings.Contains(f.Msg, "repository changed after the preview") {
		t.Fatalf("got %v, want a refused concurrent-change", err)
	}
	if got := s.published(); len(got) != 1 || got[0].ID != theirs.ID {
		t.Fatalf("the relay keeps %v, want only the concurrent state", got)
	}
}

// Rule (the confirmation after publishing): a newer state that resolves
// instead of the published one is superseded (published, unverified:
// exit 6), naming the state that won.
func TestANewerStateAfterPublishingIsSuperseded(t *testing.T) {
	t.Parallel()
	s, p := newScene(t)
	var theirs *nostr.Event
	p.AfterPublish = func() { theirs = s.other(t, time.Now().Unix()+60) }
	out, err := p.Run(context.Background(), statepub.Options{})
	f := failure.Of(err)
	if f == nil || f.Code != statepub.CodeSuperseded || f.Class != failure.Unverified {
		t.Fatalf("got %v (outcome %+v), want superseded", err, out)
	}
	var sf *statepub.Failure
	if !asFailure(err, &sf) || !strings.Contains(strings.Join(sf.Problems, "\n"), theirs.ID) {
		t.Fatalf("problems %v do not name the state that won (%s)", sf.Problems, theirs.ID)
	}
}

func asFailure(err error, into **statepub.Failure) bool {
	f, ok := err.(*statepub.Failure)
	*into = f
	return ok
}
