package projects_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/devrelay/pcrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/projects"
	"github.com/roster-cli/roster/workspace/testkeys"
)

var (
	pOwnerSK    = strings.Repeat("41", 32)
	pStrangerSK = strings.Repeat("43", 32)
	pRelaySK    = strings.Repeat("44", 32)
)

const (
	pChanA = "11111111-1111-4111-8111-111111111111"
	pChanB = "22222222-2222-4222-8222-222222222222"
)

// pcRelay is one devrelay running the NIP-PC and NIP-29 authorities, with
// the owner's project identity published.
type pcRelay struct {
	relay *devrelay.Relay
	coord projects.Coordinate
	pool  *relaypool.Pool
}

func newPCRelay(t *testing.T) *pcRelay {
	t.Helper()
	g := grouprelay.New()
	r := devrelay.StartN(t, 1, devrelay.Options{SecretKey: pRelaySK, Authorities: []devrelay.Authority{pcrelay.New(pcrelay.Options{Groups: g}), g}})[0]
	w := &pcRelay{relay: r, coord: projects.Coordinate{Owner: testkeys.Pub(t, pOwnerSK), D: "pipeline"}}
	w.publish(t, pOwnerSK, &nostr.Event{Kind: projects.KindIdentity, CreatedAt: nostr.Now() - 10, Tags: nostr.Tags{{"d", w.coord.D}, {"name", "P"}}})
	w.pool = relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	t.Cleanup(w.pool.Close)
	return w
}

func (w *pcRelay) publish(t *testing.T, sk string, evt *nostr.Event) {
	t.Helper()
	testkeys.Sign(t, sk, evt)
	if err := w.relay.PublishAs(evt.PubKey, evt); err != nil {
		t.Fatalf("kind %d: %v", evt.Kind, err)
	}
}

func (w *pcRelay) change(t *testing.T, sk string, patch projects.Patch, before func(int)) (*projects.ChangeResult, error) {
	t.Helper()
	s, err := signer.NewKeySigner(sk, "env")
	if err != nil {
		t.Fatal(err)
	}
	pool := relaypool.New(relaypool.Options{Timeout: 5 * time.Second, Auth: s.SignEvent})
	t.Cleanup(pool.Close)
	return projects.Change(context.Background(), projects.ChangeInput{Relays: pool, Publish: pipeline.PoolPublish(pool),
		Sign: s.SignEvent, Actor: testkeys.Pub(t, sk), Relay: w.relay.URL(), Coord: w.coord, Patch: patch,
		Now: nostr.Now, BeforeSign: before})
}

// Rule: each relay's answer is verified against that relay's own self; a
// projection signed by the relay is valid only under its key.
func TestReadJudgesEachRelayAgainstItsOwnSelf(t *testing.T) {
	w := newPCRelay(t)
	rd := projects.Read(context.Background(), w.pool, []string{w.relay.URL()}, w.coord)
	if !rd.Complete || rd.Best == nil || rd.Relays[0].Projection != projects.ProjectionValid || rd.Relays[0].Self != w.relay.Self() || rd.Relays[0].Event == nil {
		t.Fatalf("live read: %+v", rd)
	}
	evt := rd.Relays[0].Event
	for self, want := range map[string]string{w.relay.Self(): projects.ProjectionValid, testkeys.Pub(t, pStrangerSK): projects.ProjectionInvalid} {
		cached := projects.ReadCached([]string{w.relay.URL()}, w.coord, func(string) (string, *nostr.Event) { return self, evt })
		if got := cached.Relays[0].Projection; got != want || cached.Complete || (want == projects.ProjectionValid) != (cached.Best != nil) {
			t.Errorf("cached under self %s: projection %q (best %v), want %q", self[:8], got, cached.Best != nil, want)
		}
	}
}

// Rule: without a home channel only the owner may change related channels;
// the refusal names the owner's exact change as a suggestion run by the
// owner, and nothing is published.
func TestChangeRefusesAStrangerAndSuggestsTheOwnersChange(t *testing.T) {
	w := newPCRelay(t)
	patch, _ := projects.NewPatch([]string{pChanA}, nil)
	_, err := w.change(t, pStrangerSK, patch, nil)
	var pe *pipeline.Error
	if !errors.As(err, &pe) || pe.Class != pipeline.Refused || pe.Code != "not-authorized" {
		t.Fatalf("got %v", err)
	}
	want := projects.ChangeSuggestions(w.coord, patch, w.relay.URL(), w.coord.Owner)
	if len(pe.Next) != 1 || pe.Next[0].RunBy.String() != "the project owner "+graph.Npub(w.coord.Owner) || !pe.Next[0].Equal(want[0]) ||
		!slices.Equal(want[0].Argv, []string{"roster", "project", "relate", w.coord.String(), pChanA, "--relay", w.relay.URL()}) {
		t.Fatalf("suggestions %+v", pe.Next)
	}
	if n := len(w.relay.Stored(nostr.Filter{Kinds: []int{projects.KindChange}})); n != 0 {
		t.Fatalf("%d change(s) stored", n)
	}
}

// Rule: on a conflict the change is re-read, re-checked and retried once
// against the new revision; the read-back shows both changes.
func TestChangeRetriesOnceAfterAConflict(t *testing.T) {
	w := newPCRelay(t)
	patch, _ := projects.NewPatch([]string{pChanA}, nil)
	res, err := w.change(t, pOwnerSK, patch, func(attempt int) {
		if attempt != 0 {
			return
		}
		other, _ := projects.NewPatch([]string{pChanB}, nil)
		rd := projects.Read(context.Background(), w.pool, []string{w.relay.URL()}, w.coord)
		evt, err := projects.BuildChange(w.coord, rd.Best.Revision, other, nostr.Now()-5)
		if err != nil {
			t.Error(err)
			return
		}
		w.publish(t, pOwnerSK, evt)
	})
	if err != nil {
		t.Fatal(err)
	}
	doc := res.After.Best.Document
	if !res.Retried || res.After.Best.Revision <= res.Before.Revision || !doc.Related(pChanA) || !doc.Related(pChanB) {
		t.Fatalf("retried %v, revision %d -> %d, related %v", res.Retried, res.Before.Revision, res.After.Best.Revision, doc.RelatedChannels)
	}
}

// Rule: a relay that does not answer is "incomplete", not "not found".
func TestCurrentOnASilentRelayIsIncomplete(t *testing.T) {
	w := newPCRelay(t)
	w.relay.SetSilent(true)
	pool := relaypool.New(relaypool.Options{Timeout: 300 * time.Millisecond})
	defer pool.Close()
	_, err := projects.Current(context.Background(), pool, w.relay.URL(), w.coord)
	var pe *pipeline.Error
	if !errors.As(err, &pe) || pe.Class != pipeline.Incomplete || pe.Code != "incomplete" || len(pe.Next) != 1 || !slices.Equal(pe.Next[0].Argv[:3], []string{"roster", "project", "show"}) {
		t.Fatalf("got %#v", err)
	}
}
