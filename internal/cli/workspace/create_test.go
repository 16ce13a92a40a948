package workspace_test

import (
	"context"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/sections"
)

// With no legacy blob, create publishes an empty channel-sections event as
// the source and imports it at revision zero: the marker names that real
// event and its canonical plaintext hash, and the workspace then takes
// sections and grants like an imported one.
func TestWorkspaceCreateImportsAnEmptySourceWhenThereIsNoLegacyBlob(t *testing.T) {
	t.Parallel()
	w := clitest.NewSWWorld(t)
	// Without a blob, import says what to run instead.
	if r := w.As(clitest.SwOwnerSK, "workspace", "import", "--json"); r.Code != cmdutil.ExitIncomplete ||
		!strings.Contains(strings.Join(clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Commands, "\n"), "roster workspace create") {
		t.Fatalf("import without a blob: exit %d %s", r.Code, r.Out)
	}
	out := clitest.DecodeOut[report.WorkspaceImport](t, w.MustAs(clitest.SwOwnerSK, "workspace", "create", "--json"))
	if out.Workspace.Revision != 1 || len(out.Workspace.Sections) != 0 || !out.Switched || out.Workspace.Migration == nil ||
		out.Workspace.Migration.SourceEventID != out.SourceEventID {
		t.Fatalf("create result %+v", out)
	}
	legacy := w.Relay.Stored(nostr.Filter{Kinds: []int{sections.KindLegacy}})
	if len(legacy) != 1 || legacy[0].ID != out.SourceEventID || legacy[0].PubKey != clitest.PubOf(t, clitest.SwOwnerSK) {
		t.Fatalf("stored legacy events %+v, want the one empty source", legacy)
	}
	s, _ := signer.NewKeySigner(clitest.SwOwnerSK, "env")
	src, err := sections.NewestLegacy(context.Background(), s, clitest.PubOf(t, clitest.SwOwnerSK), legacy)
	if err != nil || src.Hash != out.SourceHash || len(src.Blob.Sections) != 0 || len(src.Blob.Assignments) != 0 {
		t.Fatalf("the source does not decrypt to the empty blob it hashes to: %+v %v", src, err)
	}
	if p := w.Stored(); p.Revision != 1 || p.Migration.SourceHash != out.SourceHash || len(p.Sections) != 0 {
		t.Fatalf("stored projection %+v", p)
	}
	w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Inbox")
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwViewerSK))
	v := clitest.DecodeOut[report.Workspace](t, w.MustAs(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub(), "--json"))
	if v.You.Role != "viewer" || len(v.Sections) != 1 || v.Sections[0].Label != "Inbox" {
		t.Fatalf("viewer sees %+v", v)
	}
	// Once created, create and import are refused before signing, and no
	// second legacy event is ever written.
	for _, verb := range []string{"create", "import"} {
		r := w.As(clitest.SwOwnerSK, "workspace", verb, "--json")
		if e := clitest.DecodeOut[clitest.ErrorOut](t, r); r.Code != cmdutil.ExitRefused || e.Error.Code != "already-imported" {
			t.Fatalf("%s after create: exit %d %s", verb, r.Code, r.Out)
		}
	}
	if n := len(w.Relay.Stored(nostr.Filter{Kinds: []int{sections.KindLegacy}})); n != 1 {
		t.Fatalf("%d legacy events after the marker", n)
	}
}

// A legacy blob that exists is migrated, never hidden behind an empty
// workspace: create refuses and names import.
func TestWorkspaceCreateRefusesWhenALegacyBlobExists(t *testing.T) {
	t.Parallel()
	w := clitest.NewSWWorld(t)
	legacy := w.PublishLegacy()
	r := w.As(clitest.SwOwnerSK, "workspace", "create", "--json")
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if r.Code != cmdutil.ExitRefused || e.Error.Code != "legacy-exists" || !strings.Contains(e.Error.Message, legacy.ID) ||
		!strings.Contains(strings.Join(e.Error.Commands, "\n"), "roster workspace import") {
		t.Fatalf("exit %d %s", r.Code, r.Out)
	}
	if n := len(w.Relay.Stored(nostr.Filter{Kinds: []int{sections.KindProjection}})); n != 0 {
		t.Fatalf("the refused create made %d projections", n)
	}
	if n := len(w.Relay.Stored(nostr.Filter{Kinds: []int{sections.KindLegacy}})); n != 1 {
		t.Fatalf("the refused create wrote a legacy event (%d stored)", n)
	}
}
