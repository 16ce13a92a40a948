package projects_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/projects"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// identityInput is an owner-write input for sk against w's relay.
func (w *pcRelay) identityInput(t *testing.T, sk string, check func(context.Context, []projects.Member) error) projects.IdentityInput {
	t.Helper()
	s, err := signer.NewKeySigner(sk, "env")
	if err != nil {
		t.Fatal(err)
	}
	pool := relaypool.New(relaypool.Options{Timeout: 5 * time.Second, Auth: s.SignEvent})
	t.Cleanup(pool.Close)
	return projects.IdentityInput{Relays: pool, Publish: pipeline.PoolPublish(pool), Sign: s.SignEvent,
		Signer: testkeys.Pub(t, sk), Relay: w.relay.URL(), Coord: w.coord, Now: nostr.Now, CheckRepos: check}
}

// latestIdentity is the newest kind 30621 the relay stores for w's project.
func (w *pcRelay) latestIdentity(t *testing.T) *nostr.Event {
	t.Helper()
	got := w.relay.Stored(nostr.Filter{Kinds: []int{projects.KindIdentity}, Authors: []string{w.coord.Owner}})
	if len(got) == 0 {
		t.Fatal("no identity stored")
	}
	return got[0]
}

// Rule (NIP-PC does not widen kind 30621's owner-only authority; an
// accepted newer identity keeps the collaboratively related channels): an
// owner's --add-repo/--remove-repo edits the `a` tags of the owner's latest
// kind 30621 and keeps every other tag byte for byte; the related channel
// another actor added through kind 47010 is not folded into the identity
// and survives in the Project State.
func TestOwnerEditsMemberRepositoriesOnTheLatestIdentityOnly(t *testing.T) {
	w := newPCRelay(t)
	repoA := projects.NewMember(strings.Repeat("a", 64), "alpha", "")
	repoB := projects.NewMember(strings.Repeat("b", 64), "beta", "wss://beta.example")
	w.publish(t, pOwnerSK, &nostr.Event{Kind: projects.KindIdentity, CreatedAt: nostr.Now() - 5, Content: "kept content",
		Tags: nostr.Tags{{"d", w.coord.D}, {"name", " P "}, {"x-ext", "1", "", "z"}, {"a", repoA.Address}, {"t", "go"}}})
	patch, _ := projects.NewPatch([]string{pChanA}, nil)
	if _, err := w.change(t, pOwnerSK, patch, nil); err != nil {
		t.Fatal(err)
	}
	res, err := projects.Update(context.Background(), w.identityInput(t, pOwnerSK, nil),
		projects.Fields{Repos: projects.RepositoryEdit{Add: []projects.Member{repoB}, Remove: []string{repoA.Address}}})
	if err != nil {
		t.Fatal(err)
	}
	want := nostr.Tags{{"d", w.coord.D}, {"name", " P "}, {"x-ext", "1", "", "z"}, {"t", "go"}, {"a", repoB.Address, "wss://beta.example"}}
	if got := w.latestIdentity(t); !reflect.DeepEqual(got.Tags, want) || got.Content != "kept content" || got.ID != res.Event.ID {
		t.Fatalf("identity tags %q content %q, want %q", got.Tags, got.Content, want)
	}
	doc := res.After.Best.Document
	if len(doc.Members) != 1 || doc.Members[0].Address != repoB.Address || !doc.Related(pChanA) {
		t.Fatalf("state after: members %+v related %v", doc.Members, doc.RelatedChannels)
	}
}

// Rule: only the owner may change the member repositories, whatever the
// signer's standing; a repository the check does not resolve is refused;
// both before signing, with nothing published.
func TestMemberRepositoryEditsAreRefusedBeforeSigning(t *testing.T) {
	w := newPCRelay(t)
	repo := projects.NewMember(strings.Repeat("c", 64), "gamma", "")
	before := len(w.relay.Stored(nostr.Filter{Kinds: []int{projects.KindIdentity}}))
	asked := 0
	check := func(_ context.Context, ms []projects.Member) error {
		asked++
		return &pipeline.Error{Class: pipeline.Refused, Code: "repository-unresolved", Msg: "no announcement of " + ms[0].Address}
	}
	edit := projects.Fields{Repos: projects.RepositoryEdit{Add: []projects.Member{repo}}}
	for _, tc := range []struct {
		sk, code string
		asked    int
	}{{pStrangerSK, "not-owner", 0}, {pOwnerSK, "repository-unresolved", 1}} {
		_, err := projects.Update(context.Background(), w.identityInput(t, tc.sk, check), edit)
		var pe *pipeline.Error
		if !errors.As(err, &pe) || pe.Code != tc.code || asked != tc.asked {
			t.Fatalf("got %v (checks %d), want %s", err, asked, tc.code)
		}
	}
	if n := len(w.relay.Stored(nostr.Filter{Kinds: []int{projects.KindIdentity}})); n != before {
		t.Fatalf("%d identities stored, want %d", n, before)
	}
	// Create with a repository writes it after roster's own tags.
	w2 := newPCRelay(t)
	w2.coord.D = "fresh"
	res, err := projects.Create(context.Background(), w2.identityInput(t, pOwnerSK, nil),
		projects.Fields{Name: ptr("F"), Repos: projects.RepositoryEdit{Add: []projects.Member{repo}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := (nostr.Tags{{"d", "fresh"}, {"name", "F"}, {"a", repo.Address}}); !reflect.DeepEqual(res.Event.Tags, want) {
		t.Fatalf("created tags %q", res.Event.Tags)
	}
}

func ptr(s string) *string { return &s }
