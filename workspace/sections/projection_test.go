package sections

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
	"github.com/roster-cli/roster/workspace/strictjson"
)

func fixtureProjection(t *testing.T) []byte {
	t.Helper()
	for _, c := range sectionstest.Load(t).ProjectionCases {
		if c.Expect == "accept" {
			return c.Projection
		}
	}
	t.Fatal("no accepted projection case in the fixture")
	return nil
}

func TestVerifyProjectionRequiresRelaySelf(t *testing.T) {
	content := fixtureProjection(t)
	p, _ := DecodeProjection(content)
	relay, forger := newKey(t), newKey(t)
	evt := projectionEvent(t, forger, p.OwnerPubkey, content)
	if _, err := VerifyProjection(evt, relay.pk, p.OwnerPubkey); rule(err) != "projection-signer" {
		t.Fatalf("forged signer: %v", err)
	}
	if _, err := VerifyProjection(evt, "", p.OwnerPubkey); rule(err) != "projection-signer" {
		t.Fatalf("no NIP-11 self: %v", err)
	}
}

func TestVerifyProjectionChecksSignatureKindOwnerVersion(t *testing.T) {
	content := fixtureProjection(t)
	p, _ := DecodeProjection(content)
	relay := newKey(t)
	good := projectionEvent(t, relay, p.OwnerPubkey, content)
	if _, err := VerifyProjection(good, relay.pk, p.OwnerPubkey); err != nil {
		t.Fatal(err)
	}
	tampered := *good
	tampered.Content = strings.Replace(good.Content, `"revision": 4`, `"revision": 5`, 1)
	if tampered.Content == good.Content {
		t.Fatal("edit did not apply")
	}
	if _, err := VerifyProjection(&tampered, relay.pk, p.OwnerPubkey); rule(err) != "projection-signature" {
		t.Fatalf("tampered: %v", err)
	}
	badSig := *good
	badSig.Sig = strings.Repeat("0", 128)
	if _, err := VerifyProjection(&badSig, relay.pk, p.OwnerPubkey); rule(err) != "projection-signature" {
		t.Fatalf("bad sig: %v", err)
	}
	wrongKind := projectionEvent(t, relay, p.OwnerPubkey, content)
	wrongKind.Kind = 30624
	_ = wrongKind.Sign(relay.sk)
	if _, err := VerifyProjection(wrongKind, relay.pk, p.OwnerPubkey); rule(err) != "projection-kind" {
		t.Fatalf("kind: %v", err)
	}
	if _, err := VerifyProjection(good, relay.pk, strings.Repeat("9", 64)); rule(err) != "projection-owner" {
		t.Fatalf("other owner: %v", err)
	}
	v2 := projectionEvent(t, relay, p.OwnerPubkey, []byte(strings.Replace(string(content), `"version": 1`, `"version": 2`, 1)))
	if v2.Content == good.Content {
		t.Fatal("version edit did not apply")
	}
	if _, err := VerifyProjection(v2, relay.pk, p.OwnerPubkey); rule(err) != "version" {
		t.Fatalf("version 2: %v", err)
	}
	// content owner differs from d tag
	other := projectionEvent(t, relay, strings.Repeat("9", 64), content)
	if _, err := VerifyProjection(other, relay.pk, strings.Repeat("9", 64)); rule(err) != "projection-owner" {
		t.Fatalf("content owner mismatch: %v", err)
	}
}

// docs/architecture.md: NIP-SW and NIP-PC share kind 30623; the workspace decoder
// rejects project-state events (a + rev tags, {"v":1} content).
func TestVerifyProjectionRejectsProjectState(t *testing.T) {
	relay := newKey(t)
	owner := strings.Repeat("1", 64)
	evt := &nostr.Event{Kind: 30623, CreatedAt: nostr.Now(), Tags: nostr.Tags{
		{"d", owner}, {"p", owner}, {"a", "30621:" + owner + ":proj"}, {"rev", "8"},
	}, Content: `{"v":1,"deleted":false,"project_tags":[["d","proj"]]}`}
	_ = evt.Sign(relay.sk)
	if _, err := VerifyProjection(evt, relay.pk, owner); rule(err) != "projection-shape" {
		t.Fatalf("project-state tags: %v", err)
	}
	evt.Tags = nostr.Tags{{"d", owner}, {"p", owner}}
	_ = evt.Sign(relay.sk)
	if _, err := VerifyProjection(evt, relay.pk, owner); rule(err) != "projection-content" || !errors.Is(err, err) {
		t.Fatalf("project-state content: %v", err)
	}
}

func TestProjectionContentRules(t *testing.T) {
	content := fixtureProjection(t)
	for name, edit := range map[string][2]string{
		"unknown-field": {`"version": 1`, `"version": 1, "extra": 0`},
		"rank-order":    {`"rank": 0`, `"rank": 1`},
		"missing-mig":   {`"migration"`, `"migratio"`},
	} {
		c := strings.Replace(string(content), edit[0], edit[1], 1)
		if c == string(content) {
			t.Fatalf("%s: edit did not apply", name)
		}
		if _, err := DecodeProjection([]byte(c)); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

func TestDecideRevision(t *testing.T) {
	for _, c := range []struct {
		have       bool
		cached, in int64
		want       RevisionDecision
	}{
		{false, 0, 7, DecisionAccept},
		{true, 4, 3, DecisionIgnore},
		{true, 4, 4, DecisionIgnore},
		{true, 4, 5, DecisionAccept},
		{true, 4, 6, DecisionRefetch},
	} {
		if got := DecideRevision(c.have, c.cached, c.in); got != c.want {
			t.Errorf("%+v: %s", c, got)
		}
	}
}

// A workspace built by ImportBody, projected as the relay would, opens for
// the owner and for a granted reader with the exact labels.
func TestImportGrantOpenRoundTrip(t *testing.T) {
	ctx := context.Background()
	owner, viewer, relay := newKey(t), newKey(t), newKey(t)
	v := sectionstest.Load(t).Canonicalization.LegacyPlaintext
	legacy := &nostr.Event{Kind: KindLegacy, CreatedAt: 10, Tags: nostr.Tags{{"d", LegacyD}}}
	ct, err := owner.s.Encrypt(ctx, string(v.Input), owner.pk)
	if err != nil {
		t.Fatal(err)
	}
	legacy.Content = ct
	_ = legacy.Sign(owner.sk)
	src, err := NewestLegacy(ctx, owner.s, owner.pk, []*nostr.Event{legacy})
	if err != nil {
		t.Fatal(err)
	}
	if src.Hash != v.SHA256 {
		t.Fatalf("source hash %s, want %s", src.Hash, v.SHA256)
	}
	community := "relay.example"
	imp, key, err := ImportBody(ctx, owner.s, community, owner.pk, src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseCommand(signedCommand(t, owner, imp)); err != nil {
		t.Fatal(err)
	}
	proj := &Projection{Version: 1, OwnerPubkey: owner.pk, Revision: 1, LayoutRevision: 1, KeyEpoch: 1,
		Migration: &Migration{SourceEventID: src.Event.ID, SourceHash: src.Hash}, ReaderKeyEnvelope: imp.OwnerKeyEnvelope}
	for _, s := range imp.Sections {
		proj.Sections = append(proj.Sections, ProjectedSection{ID: s.ID, Rank: s.Rank, EncryptedLabel: s.EncryptedLabel, EncryptedIcon: s.EncryptedIcon})
	}
	for _, a := range imp.Assignments {
		proj.Assignments = append(proj.Assignments, ProjectedAssignment{ChannelID: a.ChannelID, SectionID: a.SectionID, Revision: 1})
	}
	if !MarkerMatches(proj, src) {
		t.Fatal("marker does not match its source")
	}
	body, _ := strictjson.Canonical(proj)
	vp, err := VerifyProjection(projectionEvent(t, relay, owner.pk, body), relay.pk, owner.pk)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Open(ctx, owner.s, community, vp)
	if err != nil {
		t.Fatal(err)
	}
	lg := sectionstest.Load(t).Legacy(t)
	if string(w.Key) != string(key) || len(w.Sections) != 1 || w.Sections[0].Label != lg.Name || w.Sections[0].Icon == nil || *w.Sections[0].Icon != lg.Icon {
		t.Fatalf("owner view %+v", w.Sections)
	}
	g, err := w.GrantBody(ctx, owner.s, viewer.pk, RoleViewer)
	if err != nil {
		t.Fatal(err)
	}
	proj.ReaderKeyEnvelope = g.KeyEnvelope
	body, _ = strictjson.Canonical(proj)
	vp, _ = VerifyProjection(projectionEvent(t, relay, owner.pk, body), relay.pk, owner.pk)
	wv, err := Open(ctx, viewer.s, community, vp)
	if err != nil || wv.Sections[0].Label != lg.Name {
		t.Fatalf("viewer view %+v %v", wv, err)
	}
	// The same ciphertexts under another community fail authentication.
	if _, err := Open(ctx, viewer.s, "other.example", vp); !errors.Is(err, ErrMetadataAuth) {
		t.Fatalf("cross-community open: %v", err)
	}
}

func TestNewestLegacyPicksNewestValid(t *testing.T) {
	ctx := context.Background()
	owner := newKey(t)
	v := sectionstest.Load(t).Canonicalization.LegacyPlaintext
	mk := func(at nostr.Timestamp, plaintext string) *nostr.Event {
		ct, _ := owner.s.Encrypt(ctx, plaintext, owner.pk)
		e := &nostr.Event{Kind: KindLegacy, CreatedAt: at, Tags: nostr.Tags{{"d", LegacyD}}, Content: ct}
		_ = e.Sign(owner.sk)
		return e
	}
	older := mk(10, string(v.Input))
	newestInvalid := mk(30, `{"version":2,"sections":[],"assignments":{}}`)
	newer := mk(20, `{"version":1,"sections":[],"assignments":{}}`)
	src, err := NewestLegacy(ctx, owner.s, owner.pk, []*nostr.Event{older, newestInvalid, newer})
	if err != nil || src.Event.ID != newer.ID {
		t.Fatalf("picked %v, %v", src, err)
	}
	if _, err := NewestLegacy(ctx, owner.s, owner.pk, nil); rule(err) != "legacy-missing" {
		t.Fatalf("none: %v", err)
	}
}

// "It switches authority only after reading back the matching migration
// marker": the marker must name the same source event and hash.
func TestMarkerMatchesOnlyTheSameSource(t *testing.T) {
	src := &LegacySource{Event: &nostr.Event{ID: strings.Repeat("2", 64)}, Hash: strings.Repeat("3", 64)}
	for name, c := range map[string]struct {
		p    *Projection
		want bool
	}{
		"matching":      {&Projection{Migration: &Migration{SourceEventID: src.Event.ID, SourceHash: src.Hash}}, true},
		"other-hash":    {&Projection{Migration: &Migration{SourceEventID: src.Event.ID, SourceHash: strings.Repeat("4", 64)}}, false},
		"other-source":  {&Projection{Migration: &Migration{SourceEventID: strings.Repeat("5", 64), SourceHash: src.Hash}}, false},
		"no-marker":     {&Projection{}, false},
		"no-projection": {nil, false},
	} {
		if got := MarkerMatches(c.p, src); got != c.want {
			t.Errorf("%s: %v", name, got)
		}
	}
}

// A relay that publishes no role tags: readers are RoleReader, who may read
// and nothing else for certain (the relay decides the rest).
func TestProjectionWithoutRoleTagsYieldsReaders(t *testing.T) {
	content := fixtureProjection(t)
	p, _ := DecodeProjection(content)
	relay := newKey(t)
	other := strings.Repeat("7", 64)
	evt := &nostr.Event{Kind: KindProjection, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"d", p.OwnerPubkey}, {"p", p.OwnerPubkey}, {"p", other}}, Content: string(content)}
	_ = evt.Sign(relay.sk)
	v, err := VerifyProjection(evt, relay.pk, p.OwnerPubkey)
	if err != nil {
		t.Fatal(err)
	}
	if v.Readers[p.OwnerPubkey] != RoleOwner || v.Readers[other] != RoleReader {
		t.Fatalf("readers %v", v.Readers)
	}
	if !Allowed(RoleReader, ActionRead) || Allowed(RoleReader, ActionMove) || Allowed(RoleReader, ActionGrant) {
		t.Fatal("RoleReader may read and nothing else for certain")
	}
}
