package sections_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/swrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
	"github.com/roster-cli/roster/workspace/testkeys"
)

var (
	sOwnerSK  = strings.Repeat("51", 32)
	sViewerSK = strings.Repeat("52", 32)
	sRelaySK  = strings.Repeat("53", 32)
)

func startSW(t *testing.T) *devrelay.Relay {
	t.Helper()
	return devrelay.StartN(t, 1, devrelay.Options{SecretKey: sRelaySK, RequireAuth: true,
		Authorities: []devrelay.Authority{swrelay.New(swrelay.Options{})}})[0]
}

// session opens the owner's workspace on r as the holder of sk.
func session(t *testing.T, r *devrelay.Relay, sk string) *sections.Session {
	t.Helper()
	s, err := signer.NewKeySigner(sk, "env")
	if err != nil {
		t.Fatal(err)
	}
	pool := relaypool.New(relaypool.Options{Timeout: 5 * time.Second, Auth: s.SignEvent, AuthFirst: true})
	t.Cleanup(pool.Close)
	community, err := sections.CanonicalCommunity(r.URL())
	if err != nil {
		t.Fatal(err)
	}
	ss := &sections.Session{Relays: pool, Publish: pipeline.PoolPublish(pool), Signer: s, Now: nostr.Now,
		Me: testkeys.Pub(t, sk), Owner: testkeys.Pub(t, sOwnerSK), Relay: r.URL(), Community: community}
	ss.Connect(context.Background())
	if ss.Self != r.Self() {
		t.Fatalf("self %q, want %q", ss.Self, r.Self())
	}
	return ss
}

// publishLegacy stores the owner's legacy blob (the fixture's plaintext).
func publishLegacy(t *testing.T, r *devrelay.Relay) {
	t.Helper()
	s, _ := signer.NewKeySigner(sOwnerSK, "env")
	plaintext := string(sectionstest.Load(t).Canonicalization.LegacyPlaintext.Input)
	ct, err := s.Encrypt(context.Background(), plaintext, testkeys.Pub(t, sOwnerSK))
	if err != nil {
		t.Fatal(err)
	}
	evt := testkeys.Sign(t, sOwnerSK, &nostr.Event{Kind: sections.KindLegacy, CreatedAt: nostr.Now() - 100, Tags: nostr.Tags{{"d", sections.LegacyD}}, Content: ct})
	if err := r.PublishAs(evt.PubKey, evt); err != nil {
		t.Fatal(err)
	}
}

func asPipelineError(t *testing.T, err error, code string) *pipeline.Error {
	t.Helper()
	var pe *pipeline.Error
	if !errors.As(err, &pe) || pe.Code != code {
		t.Fatalf("got %v, want a %q pipeline error", err, code)
	}
	return pe
}

// Rule: with no workspace the owner is told to create it (create points to
// import when a legacy event exists); anyone else is told the owner must
// create it and grant them, both the owner's commands.
func TestSyncWithoutProjectionSaysWhoMustRunWhat(t *testing.T) {
	r := startSW(t)
	owner := testkeys.Pub(t, sOwnerSK)
	_, err := session(t, r, sOwnerSK).Sync(context.Background())
	pe := asPipelineError(t, err, "no-projection")
	if pe.Class != pipeline.Incomplete || len(pe.Next) != 1 || !slices.Equal(pe.Next[0].Argv[:3], []string{"roster", "workspace", "create"}) || pe.Next[0].RunBy != nil {
		t.Fatalf("owner: %+v", pe.Next)
	}
	_, err = session(t, r, sViewerSK).Sync(context.Background())
	pe = asPipelineError(t, err, "no-projection")
	if len(pe.Next) != 2 || pe.Next[0].RunBy.String() != graph.Npub(owner) || !slices.Contains(pe.Next[0].Argv, "create") || !slices.Contains(pe.Next[1].Argv, "grant") ||
		!slices.Contains(pe.Next[1].Argv, string(sections.RoleViewer)) || pe.Next[1].RunBy.String() != graph.Npub(owner) ||
		!slices.Contains(pe.Next[1].Argv, graph.Npub(testkeys.Pub(t, sViewerSK))) {
		t.Fatalf("viewer: %+v", pe.Next)
	}
}

// Rule: import switches once the marker reads back; a second import is
// refused; writes follow the role matrix, refused before signing with the
// grant the owner would have to give.
func TestImportWriteAndRoleRefusal(t *testing.T) {
	r := startSW(t)
	publishLegacy(t, r)
	ctx := context.Background()
	owner := session(t, r, sOwnerSK)
	imp, err := owner.Import(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m := imp.After.Sync.Verified.Projection.Migration; m == nil || m.SourceEventID != imp.SourceEventID || m.SourceHash != imp.SourceHash {
		t.Fatal("import read back without its marker")
	}
	asPipelineError(t, func() error { _, err := owner.Import(ctx); return err }(), "already-imported")

	viewer := testkeys.Pub(t, sViewerSK)
	res, err := owner.Write(ctx, sections.Write{Verb: "grant", Action: sections.ActionGrant,
		Build: func(ctx context.Context, s *sections.Session, cur *sections.Current) (sections.Body, error) {
			return cur.W.GrantBody(ctx, s.Signer, viewer, sections.RoleViewer)
		},
		Applied: func(after *sections.Current) bool { return after.W.Readers[viewer] == sections.RoleViewer }})
	if err != nil {
		t.Fatal(err)
	}
	if res.After.W.Revision <= res.Before.W.Revision || res.Event.Kind != sections.KindGrant {
		t.Fatalf("grant: revision %d -> %d, kind %d", res.Before.W.Revision, res.After.W.Revision, res.Event.Kind)
	}

	vs := session(t, r, sViewerSK)
	built := false
	_, err = vs.Write(ctx, sections.Write{Verb: "section add", Action: sections.ActionManage,
		Build: func(context.Context, *sections.Session, *sections.Current) (sections.Body, error) {
			built = true
			return nil, errors.New("unreachable")
		}})
	pe := asPipelineError(t, err, "role-refused")
	if built || pe.Class != pipeline.Refused || len(pe.Next) != 1 || !slices.Contains(pe.Next[0].Argv, "grant") ||
		!strings.Contains(pe.Next[0].RunBy.String(), graph.Npub(testkeys.Pub(t, sOwnerSK))) || !slices.Contains(pe.Next[0].Argv, string(sections.RoleManager)) {
		t.Fatalf("built %v, refusal %+v", built, pe)
	}
}
