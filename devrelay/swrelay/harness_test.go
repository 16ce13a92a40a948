package swrelay

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// The tests in this file drive the authority directly through Ingest and
// View with an Env like devrelay's, without sockets: the same code paths the
// relay core calls.

const community = "relay.example"

type actor struct {
	sk, pk string
	s      signer.Signer
}

func newActor(t testing.TB) actor {
	t.Helper()
	k := testkeys.New(t)
	return actor{sk: k.SK, pk: k.PK, s: k.Signer}
}

type harness struct {
	t       testing.TB
	a       *Authority
	env     devrelay.Env
	relay   actor
	mu      sync.Mutex
	evicted []string
	stored  map[string]*nostr.Event // owner -> latest stored projection
	now     nostr.Timestamp
}

func newHarness(t testing.TB, opts Options) *harness {
	h := &harness{t: t, a: New(opts), relay: newActor(t), stored: map[string]*nostr.Event{}, now: 1_700_000_000}
	h.env = devrelay.Env{
		Self:      h.relay.pk,
		Sign:      func(evt *nostr.Event) error { return evt.Sign(h.relay.sk) },
		Community: community,
		Now:       func() nostr.Timestamp { return h.now }, // a frozen clock: created_at must still advance
		Query: func(_ context.Context, f nostr.Filter) []*nostr.Event {
			var out []*nostr.Event
			for _, e := range h.stored {
				if f.Matches(e) {
					out = append(out, e)
				}
			}
			return out
		},
		Evict: func(pk string) {
			h.mu.Lock()
			h.evicted = append(h.evicted, pk)
			h.mu.Unlock()
		},
	}
	return h
}

// submit signs body as who (authenticated as who) in owner's workspace.
func (h *harness) submit(who actor, owner string, body sections.Body) error {
	h.t.Helper()
	evt, err := sections.CommandEvent(owner, body, h.now)
	if err != nil {
		h.t.Fatalf("build %T: %v", body, err)
	}
	if err := evt.Sign(who.sk); err != nil {
		h.t.Fatal(err)
	}
	return h.ingest(who.pk, evt)
}

func (h *harness) ingest(authed string, evt *nostr.Event) error {
	emit, err := h.a.Ingest(context.Background(), h.env, authed, evt)
	if err != nil {
		return err
	}
	for _, e := range emit {
		if prev := h.stored[e.Tags.GetD()]; prev != nil && e.CreatedAt <= prev.CreatedAt {
			h.t.Fatalf("projection created_at %d does not advance past %d", e.CreatedAt, prev.CreatedAt)
		}
		h.stored[e.Tags.GetD()] = e
	}
	return nil
}

// open returns reader's decrypted view of owner's workspace through View.
func (h *harness) open(reader actor, owner string) (*sections.Workspace, error) {
	h.t.Helper()
	stored := h.stored[owner]
	if stored == nil {
		return nil, fmt.Errorf("nothing stored")
	}
	evt := h.a.View(h.env, reader.pk, stored)
	if evt == nil {
		return nil, sections.ErrNoProjection
	}
	v, err := sections.VerifyProjection(evt, h.relay.pk, owner)
	if err != nil {
		return nil, err
	}
	return sections.Open(context.Background(), reader.s, community, v)
}

// legacyPlaintext is the fixture's legacy blob.
func legacyPlaintext(t testing.TB) string {
	return string(sectionstest.Load(t).Canonicalization.LegacyPlaintext.Input)
}

// importBody is owner's import of the fixture's legacy blob, published at
// created_at at, into community.
func importBody(t testing.TB, owner actor, community string, at nostr.Timestamp) sections.Body {
	t.Helper()
	ctx := context.Background()
	ct, err := owner.s.Encrypt(ctx, legacyPlaintext(t), owner.pk)
	if err != nil {
		t.Fatal(err)
	}
	legacy := &nostr.Event{Kind: sections.KindLegacy, CreatedAt: at, Tags: nostr.Tags{{"d", sections.LegacyD}}, Content: ct}
	_ = legacy.Sign(owner.sk)
	src, err := sections.NewestLegacy(ctx, owner.s, owner.pk, []*nostr.Event{legacy})
	if err != nil {
		t.Fatal(err)
	}
	body, _, err := sections.ImportBody(ctx, owner.s, community, owner.pk, src)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// imported returns a harness whose owner imported the fixture's legacy blob.
func imported(t testing.TB, opts Options) (*harness, actor) {
	t.Helper()
	h := newHarness(t, opts)
	owner := newActor(t)
	if err := h.submit(owner, owner.pk, importBody(t, owner, community, h.now)); err != nil {
		t.Fatalf("import: %v", err)
	}
	return h, owner
}

// grant makes who a grantee with role.
func (h *harness) grant(owner, who actor, role sections.Role) {
	h.t.Helper()
	w, err := h.open(owner, owner.pk)
	if err != nil {
		h.t.Fatal(err)
	}
	g, err := w.GrantBody(context.Background(), owner.s, who.pk, role)
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.submit(owner, owner.pk, g); err != nil {
		h.t.Fatalf("grant %s: %v", role, err)
	}
}

func (h *harness) projection(owner string) *sections.Projection {
	h.t.Helper()
	v, err := sections.VerifyProjection(h.stored[owner], h.relay.pk, owner)
	if err != nil {
		h.t.Fatal(err)
	}
	return v.Projection
}

func prefix(err error) string {
	if err == nil {
		return "<nil>"
	}
	p, _, _ := strings.Cut(err.Error(), ":")
	return p
}
