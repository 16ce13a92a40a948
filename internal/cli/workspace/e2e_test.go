package workspace_test

import (
	"context"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/workspace"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
	"github.com/roster-cli/roster/workspace/strictjson"
)

// anyChannel is a well-formed channel id that appears nowhere else.
const anyChannel = "0f0f0f0f-0000-4000-8000-000000000001"

// NIP-SW end to end: the owner imports, grants a viewer and a mover, the
// viewer reads decrypted labels, the mover moves a channel, the viewer cannot
// move, revoke rotates the key and the revoked reader can neither read new
// projections nor submit commands.
func TestWorkspaceOwnerImportsGrantsAndDelegatesMoveAndRevoke(t *testing.T) {
	t.Parallel()
	w := clitest.NewSWWorld(t)
	legacy := w.PublishLegacy()
	fx := sectionstest.Load(t).Canonicalization.LegacyPlaintext
	lg := sectionstest.Load(t).Legacy(t)

	imp := clitest.DecodeOut[report.WorkspaceImport](t, w.MustAs(clitest.SwOwnerSK, "workspace", "import", "--json"))
	if !imp.Switched || imp.SourceEventID != legacy.ID || imp.SourceHash != fx.SHA256 || imp.Workspace.Revision != 1 ||
		imp.Workspace.Migration == nil || imp.Workspace.Migration.SourceHash != fx.SHA256 {
		t.Fatalf("import result %+v", imp)
	}
	if n := len(w.Relay.Stored(nostr.Filter{Kinds: []int{sections.KindLegacy}})); n != 1 {
		t.Fatalf("relay stores %d legacy blobs; roster must never write one", n)
	}
	if n := len(w.Relay.Stored(nostr.Filter{Kinds: sections.CommandKinds})); n != 0 {
		t.Fatalf("commands reached ordinary storage: %d", n)
	}
	// Once the marker exists, a second import is refused before signing.
	if r := w.As(clitest.SwOwnerSK, "workspace", "import"); r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, "already imported") {
		t.Fatalf("second import: exit %d %s", r.Code, r.Err)
	}

	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwViewerSK), "--role", "viewer")
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwMoverSK), "--role", "mover")
	w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Beta", "--icon", "star")

	v := clitest.DecodeOut[report.Workspace](t, w.MustAs(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub(), "--json"))
	if v.You.Role != "viewer" || len(v.Sections) != 2 || v.Sections[0].Label != lg.Name || v.Sections[0].Icon == nil ||
		*v.Sections[0].Icon != lg.Icon || v.Sections[1].Label != "Beta" || len(v.Sections[0].Channels) != 1 {
		t.Fatalf("viewer's decrypted view %+v", v)
	}

	mv := clitest.DecodeOut[report.WorkspaceChange](t, w.MustAs(clitest.SwMoverSK, "workspace", "move", lg.Channel, "--to", "Beta", "--owner", w.OwnerNpub(), "--json"))
	if mv.Kind != sections.KindMove || mv.Revision != mv.RevisionBefore+1 || len(mv.Workspace.Sections[1].Channels) != 1 {
		t.Fatalf("move result %+v", mv)
	}
	if st := w.Stored(); st.Assignments[0].SectionID != mv.Workspace.Sections[1].ID {
		t.Fatalf("relay state %+v", st.Assignments)
	}

	before := w.Stored().Revision
	r := w.As(clitest.SwViewerSK, "workspace", "move", lg.Channel, "--to", lg.Name, "--owner", w.OwnerNpub(), "--json")
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if r.Code != cmdutil.ExitRefused || e.Error.Code != "role-refused" || !strings.Contains(e.Error.Message, "viewer") ||
		!strings.Contains(e.Error.Message, "Nothing was signed") {
		t.Fatalf("viewer move: exit %d %+v", r.Code, e)
	}
	if w.Stored().Revision != before {
		t.Fatal("a refused move changed the relay's state")
	}

	// The viewer signed a move offline, before being revoked.
	s, _ := signer.NewKeySigner(clitest.SwViewerSK, "env")
	offline := swViewerWorkspace(t, w, s)

	rv := clitest.DecodeOut[report.WorkspaceChange](t, w.MustAs(clitest.SwOwnerSK, "workspace", "revoke", w.Npub(clitest.SwViewerSK), "--json"))
	if rv.Workspace.KeyEpoch != 2 {
		t.Fatalf("revoke did not rotate the key: epoch %d", rv.Workspace.KeyEpoch)
	}
	for _, p := range rv.Workspace.Readers {
		if p.Pubkey == clitest.PubOf(t, clitest.SwViewerSK) {
			t.Fatal("revoked viewer still a reader")
		}
	}
	r = w.As(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub(), "--json")
	if e := clitest.DecodeOut[clitest.ErrorOut](t, r); r.Code != cmdutil.ExitIncomplete || e.Error.Code != "no-projection" {
		t.Fatalf("revoked viewer reads: exit %d %s", r.Code, r.Out)
	}
	mvBody, err := offline.MoveBody(lg.Channel, offline.Sections[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	evt, _ := sections.CommandEvent(clitest.PubOf(t, clitest.SwOwnerSK), mvBody, nostr.Now())
	_ = s.SignEvent(context.Background(), evt)
	if err := w.Relay.PublishAs(evt.PubKey, evt); err == nil || !strings.HasPrefix(err.Error(), "restricted:") {
		t.Fatalf("revoked reader's command: %v", err)
	}
	// The mover still reads, under the new key.
	mvView := clitest.DecodeOut[report.Workspace](t, w.MustAs(clitest.SwMoverSK, "workspace", "show", "--owner", w.OwnerNpub(), "--json"))
	if mvView.KeyEpoch != 2 || mvView.Sections[0].Label != lg.Name {
		t.Fatalf("mover after rotation %+v", mvView)
	}
}

// swViewerWorkspace is the structure the viewer saw (a move needs no key),
// to sign a command the CLI would refuse to build.
func swViewerWorkspace(t *testing.T, w *clitest.SwWorld, _ signer.Signer) *sections.Workspace {
	t.Helper()
	p := w.Stored()
	ws := &sections.Workspace{Owner: p.OwnerPubkey}
	for _, s := range p.Sections {
		ws.Sections = append(ws.Sections, sections.Section{ID: s.ID, Rank: s.Rank})
	}
	return ws
}

func TestWorkspaceMoverCannotManageButManagerCan(t *testing.T) {
	t.Parallel()
	w := clitest.ImportedWorld(t)
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwMoverSK), "--role", "mover")
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwManagerSK), "--role", "manager")
	r := w.As(clitest.SwMoverSK, "workspace", "section", "add", "Gamma", "--owner", w.OwnerNpub())
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, "mover") || !strings.Contains(r.Err, "--role manager") {
		t.Fatalf("mover manages: exit %d %s", r.Code, r.Err)
	}
	w.MustAs(clitest.SwManagerSK, "workspace", "section", "add", "Gamma", "--owner", w.OwnerNpub())
	w.MustAs(clitest.SwManagerSK, "workspace", "section", "rename", "Gamma", "Delta", "--owner", w.OwnerNpub())
	first := sectionstest.Load(t).Legacy(t).Name
	w.MustAs(clitest.SwManagerSK, "workspace", "section", "reorder", "Delta", first, "--owner", w.OwnerNpub())
	out := clitest.DecodeOut[report.WorkspaceChange](t, w.MustAs(clitest.SwManagerSK, "workspace", "section", "remove", first, "--owner", w.OwnerNpub(), "--json"))
	if len(out.Workspace.Sections) != 1 || out.Workspace.Sections[0].Label != "Delta" || len(out.Workspace.Assignments) != 0 {
		t.Fatalf("after remove %+v", out.Workspace)
	}
	h := w.MustAs(clitest.SwManagerSK, "workspace", "show", "--owner", w.OwnerNpub())
	if !strings.Contains(h.Out, "1. Delta") || !strings.Contains(h.Out, "you are the manager") || !strings.Contains(h.Out, w.Npub(clitest.SwMoverSK)+"  mover") {
		t.Fatalf("human show:\n%s", h.Out)
	}
	r = w.As(clitest.SwManagerSK, "workspace", "grant", w.Npub(clitest.SwViewerSK), "--owner", w.OwnerNpub())
	if r.Code != cmdutil.ExitUsage { // grant has no --owner: only the owner grants in their own workspace
		t.Fatalf("grant --owner: exit %d", r.Code)
	}
}

// "A projection at or below the cached revision is ignored."
func TestWorkspaceStaleProjectionIsIgnored(t *testing.T) {
	t.Parallel()
	w := clitest.ImportedWorld(t)
	w.MustAs(clitest.SwOwnerSK, "workspace", "show")
	// The owner's cache holds a (validly relay-signed) projection newer than
	// what the relay now serves, so the relay's answer is stale to it.
	owner := clitest.PubOf(t, clitest.SwOwnerSK)
	stored := w.Relay.Stored(nostr.Filter{Kinds: []int{sections.KindProjection}})[0]
	var p sections.Projection
	if err := strictjson.DecodeStrict([]byte(stored.Content), &p); err != nil {
		t.Fatal(err)
	}
	p.Revision = 9
	content, _ := strictjson.Canonical(&p)
	newer := &nostr.Event{Kind: stored.Kind, CreatedAt: stored.CreatedAt, Tags: stored.Tags, Content: string(content)}
	_ = newer.Sign(clitest.SwRelaySK)
	c, err := cache.Open(w.Homes[clitest.SwOwnerSK])
	if err != nil {
		t.Fatal(err)
	}
	community, _ := sections.CanonicalCommunity(w.Relay.URL())
	if err := c.PutProjection(workspace.WorkspaceCacheKey(community, owner, owner), newer); err != nil {
		t.Fatal(err)
	}
	c.Close()
	v := clitest.DecodeOut[report.Workspace](t, w.MustAs(clitest.SwOwnerSK, "workspace", "show", "--json"))
	if v.Decision != "ignore" || v.Revision != 9 || v.ProjectionEventID != newer.ID {
		t.Fatalf("stale relay projection was not ignored: decision %s revision %d", v.Decision, v.Revision)
	}
}

// "A gap greater than one causes a full authorized refetch."
func TestWorkspaceRevisionGapTriggersRefetch(t *testing.T) {
	t.Parallel()
	w := clitest.ImportedWorld(t)
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwViewerSK))
	first := clitest.DecodeOut[report.Workspace](t, w.MustAs(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub(), "--json"))
	w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Beta")
	w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Gamma")
	reqs := w.Relay.ReqCount()
	v := clitest.DecodeOut[report.Workspace](t, w.MustAs(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub(), "--json"))
	if v.Decision != "refetch" || !v.Refetched || v.Revision != first.Revision+2 || len(v.Sections) != 3 {
		t.Fatalf("gap: decision %s refetched %v revision %d (was %d)", v.Decision, v.Refetched, v.Revision, first.Revision)
	}
	gapped := w.Relay.ReqCount() - reqs
	// The next revision is accepted without a refetch: one REQ fewer.
	w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Delta")
	reqs = w.Relay.ReqCount()
	v = clitest.DecodeOut[report.Workspace](t, w.MustAs(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub(), "--json"))
	if v.Decision != "accept" || v.Refetched {
		t.Fatalf("next revision: %s %v", v.Decision, v.Refetched)
	}
	if plain := w.Relay.ReqCount() - reqs; gapped != plain+1 {
		t.Fatalf("a gapped show sent %d REQs, a plain one %d: want exactly one more (the full refetch)", gapped, plain)
	}
}

// Projections signed by a key other than the relay's NIP-11 self are rejected
// and never cached.
func TestWorkspaceProjectionNotSignedByRelaySelfIsRejected(t *testing.T) {
	t.Parallel()
	w := clitest.ImportedWorld(t)
	owner := clitest.PubOf(t, clitest.SwOwnerSK)
	stored := w.Relay.Stored(nostr.Filter{Kinds: []int{sections.KindProjection}})[0]
	var p sections.Projection
	_ = strictjson.DecodeStrict([]byte(stored.Content), &p)
	p.Revision = 2 // would be accepted as the next revision if trusted
	content, _ := strictjson.Canonical(&p)
	forged := &nostr.Event{Kind: stored.Kind, CreatedAt: stored.CreatedAt + 5, Tags: stored.Tags, Content: string(content)}
	_ = forged.Sign(clitest.SwForgerSK)
	w.Relay.SetExtra(forged)
	v := clitest.DecodeOut[report.Workspace](t, w.MustAs(clitest.SwOwnerSK, "workspace", "show", "--json"))
	if v.Revision != 1 || v.ProjectionEventID != stored.ID || len(v.Rejected) != 1 || !strings.Contains(v.Rejected[0], "projection-signer") {
		t.Fatalf("forged projection: revision %d rejected %v", v.Revision, v.Rejected)
	}
	c, _ := cache.Open(w.Homes[clitest.SwOwnerSK])
	defer c.Close()
	community, _ := sections.CanonicalCommunity(w.Relay.URL())
	if got, _ := c.Projection(workspace.WorkspaceCacheKey(community, owner, owner)); got == nil || got.ID != stored.ID {
		t.Fatalf("cache holds %v", got)
	}
}

// "During relay outage, the last verified cache may render but is stale and
// cannot become a replacement write."
func TestWorkspaceOutageShowsStaleCacheAndRefusesWrites(t *testing.T) {
	t.Parallel()
	w := clitest.ImportedWorld(t)
	w.MustAs(clitest.SwOwnerSK, "workspace", "show")
	w.Relay.Stop()
	t.Cleanup(func() { _ = w.Relay.Start() })
	v := clitest.DecodeOut[report.Workspace](t, w.MustAs(clitest.SwOwnerSK, "workspace", "show", "--json"))
	if !v.Stale || v.StaleReason == "" || v.Revision != 1 || v.Sections[0].Label != sectionstest.Load(t).Legacy(t).Name {
		t.Fatalf("outage view %+v", v)
	}
	if v := clitest.DecodeOut[report.Workspace](t, w.MustAs(clitest.SwOwnerSK, "workspace", "show", "--offline", "--json")); !v.Stale || v.Revision != 1 {
		t.Fatalf("--offline view %+v", v)
	}
	r := w.As(clitest.SwOwnerSK, "workspace", "section", "add", "Beta")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, "stale") {
		t.Fatalf("write from a stale projection: exit %d %s", r.Code, r.Err)
	}
	if h := w.MustAs(clitest.SwOwnerSK, "workspace", "show"); !strings.Contains(h.Out, "STALE") {
		t.Fatalf("human output does not mark staleness: %s", h.Out)
	}
}

func TestWorkspaceUsageErrors(t *testing.T) {
	t.Parallel()
	w := clitest.NewSWWorld(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"workspace", "grant", "npub1nope"}, "npub"},
		{[]string{"workspace", "grant", w.Npub(clitest.SwViewerSK), "--role", "owner"}, "--role"},
		{[]string{"workspace", "move", "not-a-uuid", "--to", "x"}, "UUID"},
		{[]string{"workspace", "move", anyChannel}, "--to"},
		{[]string{"workspace", "show", "--owner", "zzz"}, "--owner"},
	} {
		if r := w.As(clitest.SwOwnerSK, c.args...); r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, c.want) {
			t.Errorf("%v: exit %d %s", c.args, r.Code, r.Err)
		}
	}
	// No relay, and no signer.
	home := t.TempDir()
	r := clitest.Invocation{Env: map[string]string{"ROSTER_SECRET_KEY": clitest.SwOwnerSK, "ROSTER_HOME": home}}.Roster(t, "workspace", "show")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "exactly one --relay") {
		t.Fatalf("no relay: exit %d %s", r.Code, r.Err)
	}
	r = clitest.Invocation{Env: map[string]string{"ROSTER_HOME": home}}.Roster(t, "workspace", "show", "--relay", w.Relay.URL())
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Out+r.Err, "signer") {
		t.Fatalf("no signer: exit %d %s", r.Code, r.Err)
	}
	// Before any import, show says what to run.
	r = w.As(clitest.SwOwnerSK, "workspace", "show")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, "roster workspace create") {
		t.Fatalf("no workspace: exit %d %s", r.Code, r.Err)
	}
	// Import without a legacy blob.
	if r := w.As(clitest.SwOwnerSK, "workspace", "import"); r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, "channel-sections") {
		t.Fatalf("import without legacy: exit %d %s", r.Code, r.Err)
	}
}

func TestWorkspaceHelpHasExamples(t *testing.T) {
	t.Parallel()
	for _, sub := range [][]string{{"workspace"}, {"workspace", "show"}, {"workspace", "import"}, {"workspace", "grant"},
		{"workspace", "revoke"}, {"workspace", "move"}, {"workspace", "unassign"}, {"workspace", "section"}, {"workspace", "section", "add"}, {"workspace", "section", "move"},
		{"workspace", "section", "rename"}, {"workspace", "section", "reorder"}, {"workspace", "section", "remove"}} {
		r := clitest.Invocation{Env: map[string]string{}}.Roster(t, append(sub, "--help")...)
		if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "Examples:") || !strings.Contains(r.Out, "roster workspace") {
			t.Errorf("%v --help: exit %d\n%s", sub, r.Code, r.Out)
		}
	}
}
