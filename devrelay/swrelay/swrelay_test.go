package swrelay

import (
	"context"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

func TestImportWritesRevisionOneAndMigrationMarker(t *testing.T) {
	h, owner := imported(t, Options{})
	p := h.projection(owner.pk)
	legacy := sectionstest.Load(t).Canonicalization.LegacyPlaintext
	if p.Revision != 1 || p.LayoutRevision != 1 || p.KeyEpoch != 1 || p.Migration == nil || p.Migration.SourceHash != legacy.SHA256 {
		t.Fatalf("projection %+v", p)
	}
	w, err := h.open(owner, owner.pk)
	if err != nil || len(w.Sections) != 1 || w.Sections[0].Label != sectionstest.Load(t).Legacy(t).Name {
		t.Fatalf("owner view %+v %v", w, err)
	}
}

func TestImportOnlyOnceAndOnlyByOwner(t *testing.T) {
	h, owner := imported(t, Options{})
	stranger := newActor(t)
	imp := sectionstest.Load(t).Canonicalization.ImportCommand
	body, err := sections.DecodeBody(sections.KindImport, []byte(imp.Canonical))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.submit(owner, owner.pk, body); prefix(err) != "invalid" || !strings.Contains(err.Error(), "import-once") {
		t.Fatalf("second import: %v", err)
	}
	if err := h.submit(stranger, owner.pk, body); prefix(err) != "restricted" {
		t.Fatalf("import by a stranger: %v", err)
	}
}

func TestImportRequiresExistingChannels(t *testing.T) {
	h := newHarness(t, Options{Channels: func(string, string) bool { return false }})
	owner := newActor(t)
	imp := sectionstest.Load(t).Canonicalization.ImportCommand
	body, _ := sections.DecodeBody(sections.KindImport, []byte(imp.Canonical))
	if err := h.submit(owner, owner.pk, body); err == nil || !strings.Contains(err.Error(), "channel-missing") {
		t.Fatalf("unknown channel: %v", err)
	}
	if len(h.stored) != 0 {
		t.Fatal("a rejected import produced a projection")
	}
}

func TestCommandsNeedAuthenticatedSigner(t *testing.T) {
	h, owner := imported(t, Options{})
	other := newActor(t)
	w, _ := h.open(owner, owner.pk)
	mv, _ := w.MoveBody(uuid('c', 7), w.Sections[0].ID)
	evt, _ := sections.CommandEvent(owner.pk, mv, h.now)
	_ = evt.Sign(owner.sk)
	if err := h.ingest("", evt); prefix(err) != "auth-required" {
		t.Fatalf("unauthenticated: %v", err)
	}
	if err := h.ingest(other.pk, evt); prefix(err) != "restricted" {
		t.Fatalf("authenticated as someone else: %v", err)
	}
	if err := h.ingest(owner.pk, evt); err != nil {
		t.Fatal(err)
	}
}

func TestClientSubmittedProjectionRejected(t *testing.T) {
	h, owner := imported(t, Options{})
	forged := *h.stored[owner.pk]
	forged.Tags = append(nostr.Tags(nil), forged.Tags...)
	_ = forged.Sign(owner.sk)
	if err := h.ingest(owner.pk, &forged); prefix(err) != "restricted" {
		t.Fatalf("client 30623: %v", err)
	}
	if k := New(Options{LeaveProjectionKind: true}).Kinds(); len(k) != len(sections.CommandKinds) {
		t.Fatalf("LeaveProjectionKind kinds %v", k)
	}
}

func uuid(prefix byte, n int) string {
	return string(prefix) + strings.Repeat("0", 7) + "-0000-4000-8000-" + strings.Repeat("0", 11) + string(rune('0'+n))
}

// Fixture "action-id-different-hash": same action id, different command hash: rejected.
func TestFixtureActionIDDifferentHash(t *testing.T) {
	for _, c := range sectionstest.Load(t).CommandCases {
		if !c.SameActionID {
			continue
		}
		w := newWorkspace(strings.Repeat("1", 64))
		w.actions["dddddddd-dddd-4ddd-8ddd-dddddddddddd"] = actionRow{hash: c.FirstHash, revision: 1}
		retry, err := w.priorAction("dddddddd-dddd-4ddd-8ddd-dddddddddddd", c.RetryHash)
		got := "accept"
		if err != nil {
			got = "reject"
		}
		if got != c.Expect || retry {
			t.Fatalf("%s: %s (retry %v, %v), want %s", c.Name, got, retry, err, c.Expect)
		}
		if retry, err := w.priorAction("dddddddd-dddd-4ddd-8ddd-dddddddddddd", c.FirstHash); err != nil || !retry {
			t.Fatalf("%s: identical hash is not an exact retry: %v", c.Name, err)
		}
		return
	}
	t.Fatal("no same_action_id case in the fixture")
}

// "An exact retry returns its original revision. Reusing an action ID for
// different bytes is rejected."
func TestActionRowsOnRealCommands(t *testing.T) {
	h, owner := imported(t, Options{})
	w, _ := h.open(owner, owner.pk)
	mv, _ := w.MoveBody(uuid('c', 3), w.Sections[0].ID)
	evt, _ := sections.CommandEvent(owner.pk, mv, h.now)
	_ = evt.Sign(owner.sk)
	if err := h.ingest(owner.pk, evt); err != nil {
		t.Fatal(err)
	}
	rev := h.projection(owner.pk).Revision
	if err := h.ingest(owner.pk, evt); err != nil {
		t.Fatalf("exact retry: %v", err)
	}
	if h.projection(owner.pk).Revision != rev {
		t.Fatal("exact retry advanced the revision")
	}
	other := *mv
	other.ChannelID = uuid('c', 4)
	if err := h.submit(owner, owner.pk, &other); err == nil || !strings.Contains(err.Error(), "action-reused") {
		t.Fatalf("reused action id: %v", err)
	}
	row := h.a.workspaces[wsKey{community, owner.pk}].actions[mv.ActionID]
	if row.eventID != evt.ID || !strings.Contains(string(row.event), evt.Sig) || row.revision != rev {
		t.Fatalf("action row %+v does not keep the signed event and its revision", row)
	}
}

// Every cell of the fixture's role matrix, enforced at ingest.
func TestFixtureRoleMatrixAtIngest(t *testing.T) {
	f := sectionstest.Load(t)
	for role, allowed := range f.RoleMatrix {
		can := map[string]bool{}
		for _, a := range allowed {
			can[a] = true
		}
		for name, kind := range f.Kinds {
			if kind == sections.KindProjection {
				continue
			}
			t.Run(role+"/"+name, func(t *testing.T) {
				h, owner := imported(t, Options{})
				who := owner
				if role != string(sections.RoleOwner) {
					who = newActor(t)
					h.grant(owner, who, sections.Role(role))
				}
				if !can["read"] {
					t.Fatal("every role reads")
				}
				if _, err := h.open(who, owner.pk); err != nil {
					t.Fatalf("read: %v", err)
				}
				err := h.submit(who, owner.pk, bodyFor(t, h, owner, kind))
				switch {
				case can[name] && kind == sections.KindImport:
					// Allowed, but only at revision zero: the import-once rule.
					if !strings.Contains(errString(err), "import-once") {
						t.Fatalf("owner re-import: %v", err)
					}
				case can[name] && err != nil:
					t.Fatalf("allowed %s rejected: %v", name, err)
				case !can[name] && prefix(err) != "restricted":
					t.Fatalf("forbidden %s: %v", name, err)
				}
			})
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// bodyFor builds a valid command of kind for owner's workspace (built with
// the owner's key, so only authorization can reject it).
func bodyFor(t *testing.T, h *harness, owner actor, kind int) sections.Body {
	t.Helper()
	ctx := context.Background()
	w, err := h.open(owner, owner.pk)
	if err != nil {
		t.Fatal(err)
	}
	var b sections.Body
	switch kind {
	case sections.KindImport:
		imp := sectionstest.Load(t).Canonicalization.ImportCommand
		b, err = sections.DecodeBody(kind, []byte(imp.Canonical))
	case sections.KindGrant:
		b, err = w.GrantBody(ctx, owner.s, newActor(t).pk, sections.RoleViewer)
	case sections.KindRevoke:
		victim := newActor(t)
		h.grant(owner, victim, sections.RoleViewer)
		w, _ = h.open(owner, owner.pk)
		b, err = w.RevokeBody(ctx, owner.s, victim.pk)
	case sections.KindMove:
		b, err = w.MoveBody(uuid('c', 5), w.Sections[0].ID)
	case sections.KindManage:
		b, err = w.AddBody("Beta", nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}
