package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

// The rows of TestEveryPrintedCommandMovesForward for the workspace
// commands (internal/cli/workspace, workspace/pipeline, workspace/sections):
// each provokes a suggestion through the real command, pastes it as printed
// as the person it is for, in their own home with their own key, and
// checks that it gets further.
func init() { suggestionRows = append(suggestionRows, wsRows...) }

// The fixture's section and channel (importedWorld).
const (
	wsAlpha   = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"
	wsChannel = "cccccccc-cccc-4ccc-8ccc-cccccccccccc"
)

var wsRows = []suggestionRow{
	{"a workspace write given no --relay: the command as typed, with one", func(t *testing.T) {
		w := clitest.ImportedWorld(t)
		viewer := w.Npub(clitest.SwViewerSK)
		w.MustAs(clitest.SwOwnerSK, "workspace", "grant", viewer)
		rev := w.Stored().Revision
		// A preview stays a preview, a role stays the role asked for.
		dry := wsNoRelayRetry(t, w, clitest.SwOwnerSK, "workspace", "revoke", viewer, "--dry-run")
		if !strings.Contains(dry, "--dry-run") {
			t.Fatalf("the retry of a --dry-run drops it: %q", dry)
		}
		if got := wsPaste(t, w, clitest.SwOwnerSK, dry); got.Code != cmdutil.ExitOK || w.Stored().Revision != rev {
			t.Fatalf("%q: exit %d, revision %d -> %d\n%s%s", dry, got.Code, rev, w.Stored().Revision, got.Out, got.Err)
		}
		grant := wsNoRelayRetry(t, w, clitest.SwOwnerSK, "workspace", "grant", viewer, "--role", "mover")
		out := clitest.DecodeOut[report.WorkspaceChange](t, wsMustPaste(t, w, clitest.SwOwnerSK, grant, "--json"))
		if !slices.ContainsFunc(out.Workspace.Readers, func(r report.WorkspacePerson) bool { return r.Npub == viewer && r.Role == "mover" }) {
			t.Fatalf("%q did not make %s a mover: %+v", grant, viewer, out.Workspace.Readers)
		}
		add := wsNoRelayRetry(t, w, clitest.SwOwnerSK, "workspace", "section", "add", "Later")
		out = clitest.DecodeOut[report.WorkspaceChange](t, wsMustPaste(t, w, clitest.SwOwnerSK, add, "--json"))
		if !slices.ContainsFunc(out.Workspace.Sections, func(s report.WorkspaceSection) bool { return s.Label == "Later" }) {
			t.Fatalf("%q added no section Later: %+v", add, out.Workspace.Sections)
		}
	}},
	{"a workspace read or move by a grantee given no --relay: the command as typed, with one", func(t *testing.T) {
		w := clitest.ImportedWorld(t)
		w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwMoverSK), "--role", "mover")
		w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Later")
		show := wsNoRelayRetry(t, w, clitest.SwMoverSK, "workspace", "show", "--owner", w.OwnerNpub())
		if got := clitest.DecodeOut[report.Workspace](t, wsMustPaste(t, w, clitest.SwMoverSK, show, "--json")); got.Owner.Npub != w.OwnerNpub() {
			t.Fatalf("%q shows the workspace of %s", show, got.Owner.Npub)
		}
		move := wsNoRelayRetry(t, w, clitest.SwMoverSK, "workspace", "move", wsChannel, "--to", "Later", "--owner", w.OwnerNpub())
		wsMustPaste(t, w, clitest.SwMoverSK, move)
		list := wsNoRelayRetry(t, w, clitest.SwMoverSK, "workspace", "list")
		if got := clitest.DecodeOut[report.WorkspaceList](t, wsMustPaste(t, w, clitest.SwMoverSK, list, "--json")); len(got.Workspaces) != 1 {
			t.Fatalf("%q lists %d workspaces", list, len(got.Workspaces))
		}
	}},
	{"workspace import given two relays: import on the one", func(t *testing.T) {
		w := clitest.NewSWWorld(t)
		w.PublishLegacy()
		other := devrelay.StartN(t, 1, devrelay.Options{})[0]
		r := w.As(clitest.SwOwnerSK, "workspace", "import", "--relay", other.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "one-relay")
		c := clitest.CommandStarting(t, e.Commands, "roster workspace import")
		wsMustPaste(t, w, clitest.SwOwnerSK, strings.ReplaceAll(c, "wss://<community relay>", w.Relay.URL()))
		if st := w.Stored(); st.Migration == nil {
			t.Fatalf("the pasted import left no migration marker: %+v", st)
		}
	}},
	{"a NIP-05 name that does not resolve: the command as typed, with the npub", func(t *testing.T) {
		w := clitest.ImportedWorld(t)
		w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Later")
		w.Http, _ = clitest.Nip05Server(t, map[string]string{})
		viewer := w.Npub(clitest.SwViewerSK)
		fill := map[string]string{"<npub>": viewer}
		r := w.As(clitest.SwOwnerSK, "workspace", "grant", "viewer@example.com", "--role", "mover", "--json")
		grant := clitest.CommandStarting(t, wantError(t, r, cmdutil.ExitIncomplete, "nip05").Commands, "roster workspace grant")
		out := clitest.DecodeOut[report.WorkspaceChange](t, wsMustPaste(t, w, clitest.SwOwnerSK, wsFill(grant, fill), "--json"))
		if !slices.ContainsFunc(out.Workspace.Readers, func(r report.WorkspacePerson) bool { return r.Npub == viewer && r.Role == "mover" }) {
			t.Fatalf("%q did not grant the mover role it was typed with: %+v", grant, out.Workspace.Readers)
		}
		rev := w.Stored().Revision
		r = w.As(clitest.SwOwnerSK, "workspace", "revoke", "viewer@example.com", "--dry-run", "--json")
		dry := clitest.CommandStarting(t, wantError(t, r, cmdutil.ExitIncomplete, "nip05").Commands, "roster workspace revoke")
		if got := wsPaste(t, w, clitest.SwOwnerSK, wsFill(dry, fill)); got.Code != cmdutil.ExitOK || w.Stored().Revision != rev {
			t.Fatalf("%q: exit %d, revision %d -> %d (a dry run must stay one)\n%s%s", dry, got.Code, rev, w.Stored().Revision, got.Out, got.Err)
		}
		r = w.As(clitest.SwViewerSK, "workspace", "move", wsChannel, "--to", "Later", "--owner", "owner@example.com", "--json")
		move := clitest.CommandStarting(t, wantError(t, r, cmdutil.ExitIncomplete, "nip05").Commands, "roster workspace move")
		wsMustPaste(t, w, clitest.SwViewerSK, wsFill(move, map[string]string{"<npub>": w.OwnerNpub()}))
	}},
	{"a workspace move by a viewer: the owner's grant, run by the owner", func(t *testing.T) {
		w := clitest.ImportedWorld(t)
		viewer := w.Npub(clitest.SwViewerSK)
		w.MustAs(clitest.SwOwnerSK, "workspace", "grant", viewer)
		w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Later")
		w.Homes[clitest.SwViewerSK] = t.TempDir()
		move := []string{"workspace", "move", wsChannel, "--to", "Later", "--owner", w.OwnerNpub()}
		r := w.As(clitest.SwViewerSK, append(move, "--home", w.Homes[clitest.SwViewerSK], "--json")...)
		c := clitest.CommandStarting(t, wantError(t, r, cmdutil.ExitRefused, "role-refused").Commands, "roster workspace grant "+viewer)
		if !strings.Contains(c, "  # run by "+w.OwnerNpub()) {
			t.Errorf("the grant does not say it is the owner's: %q", c)
		}
		if strings.Contains(c, "--home") {
			t.Errorf("the owner's grant carries the viewer's --home: %q", c)
		}
		wsMustPaste(t, w, clitest.SwOwnerSK, c)
		w.MustAs(clitest.SwViewerSK, move...)
	}},
	{"workspace list by a grantee: each workspace's show", func(t *testing.T) {
		w := clitest.ImportedWorld(t)
		w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwViewerSK))
		list := clitest.DecodeOut[report.WorkspaceList](t, w.MustAs(clitest.SwViewerSK, "workspace", "list", "--json"))
		if len(list.Workspaces) != 1 {
			t.Fatalf("listed %d workspaces", len(list.Workspaces))
		}
		got := clitest.DecodeOut[report.Workspace](t, wsMustPaste(t, w, clitest.SwViewerSK, list.Workspaces[0].Show, "--json"))
		if got.Owner.Npub != w.OwnerNpub() || len(got.Sections) == 0 {
			t.Fatalf("%q shows %+v", list.Workspaces[0].Show, got)
		}
	}},
	{"workspace list naming nobody: start yours with create", func(t *testing.T) {
		w := clitest.NewSWWorld(t)
		r := w.MustAs(clitest.SwOwnerSK, "workspace", "list")
		_, c, ok := strings.Cut(r.Out, "none: start yours with ")
		if !ok {
			t.Fatalf("no create offered:\n%s", r.Out)
		}
		c, _, _ = strings.Cut(c, "\n")
		wsMustPaste(t, w, clitest.SwOwnerSK, c)
		w.MustAs(clitest.SwOwnerSK, "workspace", "show")
	}},
	{"revoking someone who holds no grant: show the readers", func(t *testing.T) {
		w := clitest.ImportedWorld(t)
		for _, dry := range [][]string{nil, {"--dry-run"}} {
			r := w.As(clitest.SwOwnerSK, append([]string{"workspace", "revoke", w.Npub(clitest.SwMoverSK), "--json"}, dry...)...)
			c := clitest.CommandStarting(t, wantError(t, r, cmdutil.ExitRefused, "invalid-command").Commands, "roster workspace show")
			got := clitest.DecodeOut[report.Workspace](t, wsMustPaste(t, w, clitest.SwOwnerSK, c, "--json"))
			if len(got.Readers) == 0 {
				t.Fatalf("%q lists no reader", c)
			}
		}
	}},
	{"a workspace write: the whole workspace's show", func(t *testing.T) {
		w := clitest.ImportedWorld(t)
		w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwMoverSK), "--role", "mover")
		for _, p := range []struct {
			sk   string
			args []string
		}{
			{clitest.SwOwnerSK, []string{"workspace", "section", "add", "Later", "--home", w.Homes[clitest.SwOwnerSK]}},
			{clitest.SwMoverSK, []string{"workspace", "move", wsChannel, "--to", "Later", "--owner", w.OwnerNpub()}},
		} {
			r := w.MustAs(p.sk, p.args...)
			_, c, ok := strings.Cut(r.Out, "the whole workspace: ")
			if !ok {
				t.Fatalf("%v prints no show line:\n%s", p.args, r.Out)
			}
			c, _, _ = strings.Cut(c, "\n")
			got := clitest.DecodeOut[report.Workspace](t, wsMustPaste(t, w, p.sk, c, "--json"))
			if got.Owner.Npub != w.OwnerNpub() || !slices.ContainsFunc(got.Sections, func(s report.WorkspaceSection) bool { return s.Label == "Later" }) {
				t.Fatalf("%q does not show the written workspace: %+v", c, got)
			}
		}
	}},
	{"a workspace write with the relay not answering: the cached workspace", func(t *testing.T) {
		w := clitest.ImportedWorld(t)
		w.Relay.SetMisbehaviour(devrelay.Misbehaviour{RefuseREQ: refuseReqOfKind(sections.KindProjection)})
		r := w.As(clitest.SwOwnerSK, "workspace", "section", "add", "Later", "--json")
		c := clitest.CommandStarting(t, wantError(t, r, cmdutil.ExitIncomplete, "stale").Commands, "roster workspace show")
		// The relay still does not answer: the last verified workspace, marked stale.
		if got := clitest.DecodeOut[report.Workspace](t, wsMustPaste(t, w, clitest.SwOwnerSK, c, "--json")); !got.Stale || len(got.Sections) == 0 {
			t.Fatalf("%q: %+v", c, got)
		}
	}},
	{"a move to a section the workspace lacks: show lists them", func(t *testing.T) {
		w := clitest.ImportedWorld(t)
		r := w.As(clitest.SwOwnerSK, "workspace", "move", wsChannel, "--to", "Nowhere", "--json")
		e := clitest.DecodeOut[clitest.ErrorOut](t, r)
		if r.Code == cmdutil.ExitOK {
			t.Fatalf("a move to no section succeeded: %s", r.Out)
		}
		c := clitest.CommandStarting(t, e.Error.Commands, "roster workspace show")
		got := clitest.DecodeOut[report.Workspace](t, wsMustPaste(t, w, clitest.SwOwnerSK, c, "--json"))
		if !slices.ContainsFunc(got.Sections, func(s report.WorkspaceSection) bool { return s.ID == wsAlpha }) {
			t.Fatalf("%q lists no section: %+v", c, got.Sections)
		}
	}},
	{"workspace list with the relay not answering: the same once it is back", func(t *testing.T) {
		w := clitest.ImportedWorld(t)
		w.Relay.SetMisbehaviour(devrelay.Misbehaviour{RefuseREQ: refuseReqOfKind(sections.KindProjection)})
		r := w.As(clitest.SwOwnerSK, "workspace", "list", "--json")
		c := clitest.CommandStarting(t, wantError(t, r, cmdutil.ExitIncomplete, "incomplete").Commands, "roster workspace list")
		w.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		if got := clitest.DecodeOut[report.WorkspaceList](t, wsMustPaste(t, w, clitest.SwOwnerSK, c, "--json")); len(got.Workspaces) != 1 {
			t.Fatalf("%q lists %d workspaces", c, len(got.Workspaces))
		}
	}},
	{"workspace import with the relay not answering for the legacy event: the same once it is back", func(t *testing.T) {
		wsLegacyUnanswered(t, "import")
	}},
	{"workspace create with the relay not answering for the legacy event: the same once it is back", func(t *testing.T) {
		wsLegacyUnanswered(t, "create")
	}},
	{"workspace import whose answer is lost: the same import again, then show", func(t *testing.T) {
		w := clitest.NewSWWorld(t)
		w.PublishLegacy()
		w.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == sections.KindImport }})
		r := w.As(clitest.SwOwnerSK, "workspace", "import", "--json")
		e := wantError(t, r, cmdutil.ExitUnverified, "unconfirmed")
		w.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		retry := clitest.CommandStarting(t, e.Commands, "roster workspace import")
		if out := clitest.DecodeOut[report.WorkspaceImport](t, wsMustPaste(t, w, clitest.SwOwnerSK, retry, "--json")); !out.Replayed {
			t.Fatalf("%q did not send the kept import again: %+v", retry, out)
		}
		wsMustPaste(t, w, clitest.SwOwnerSK, clitest.CommandStarting(t, e.Commands, "roster workspace show"))
	}},
	{"a kept import another import overtook: show the workspace", func(t *testing.T) {
		w := clitest.NewSWWorld(t)
		w.PublishLegacy()
		w.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == sections.KindImport }})
		wantError(t, w.As(clitest.SwOwnerSK, "workspace", "import", "--json"), cmdutil.ExitUnverified, "unconfirmed")
		w.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		// Meanwhile the owner edits the blob and imports it from another machine.
		wsPublishLegacy(t, w, nostr.Now()-50)
		other := clitest.Invocation{Env: map[string]string{"ROSTER_SECRET_KEY": clitest.SwOwnerSK, "ROSTER_HOME": t.TempDir()}}
		if r := other.Roster(t, "workspace", "import", "--relay", w.Relay.URL(), "--timeout", "5s"); r.Code != cmdutil.ExitOK {
			t.Fatalf("the other import: exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		r := w.As(clitest.SwOwnerSK, "workspace", "import", "--json")
		c := clitest.CommandStarting(t, wantError(t, r, cmdutil.ExitRefused, "already-imported").Commands, "roster workspace show")
		if got := clitest.DecodeOut[report.Workspace](t, wsMustPaste(t, w, clitest.SwOwnerSK, c, "--json")); got.Migration == nil {
			t.Fatalf("%q: %+v", c, got)
		}
	}},
	{"a workspace write with a full journal: roster pending", func(t *testing.T) {
		w := clitest.ImportedWorld(t)
		home := w.Homes[clitest.SwOwnerSK]
		fillWorkspaceJournal(t, home, w.Relay.URL())
		r := w.As(clitest.SwOwnerSK, "workspace", "section", "add", "Later", "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "journal-unwritable")
		c := clitest.CommandStarting(t, e.Commands, "roster pending")
		got := wsMustPaste(t, w, clitest.SwOwnerSK, c, "--json")
		if p := clitest.DecodeOut[clitest.PendingJSON](t, got); len(p.Writes) != journal.MaxEntries {
			t.Fatalf("%q lists %d writes", c, len(p.Writes))
		}
	}},
	{"a workspace write with an unreadable journal entry: roster pending lists it", func(t *testing.T) {
		w := clitest.ImportedWorld(t)
		jd := filepath.Join(w.Homes[clitest.SwOwnerSK], "journal")
		if err := os.MkdirAll(jd, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(jd, "torn.json"), []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
		r := w.As(clitest.SwOwnerSK, "workspace", "section", "add", "Later", "--json")
		c := clitest.CommandStarting(t, wantError(t, r, cmdutil.ExitFailure, "journal-unreadable").Commands, "roster pending")
		got := wsMustPaste(t, w, clitest.SwOwnerSK, c, "--json")
		if !strings.Contains(got.Out, "torn.json") {
			t.Fatalf("%q does not list the unreadable file:\n%s", c, got.Out)
		}
	}},
	{"a workspace write whose journal is not a directory: no roster pending, which fails the same way", func(t *testing.T) {
		w := clitest.ImportedWorld(t)
		home := w.Homes[clitest.SwOwnerSK]
		if err := os.RemoveAll(filepath.Join(home, "journal")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, "journal"), []byte("not a directory"), 0o600); err != nil {
			t.Fatal(err)
		}
		r := w.As(clitest.SwOwnerSK, "workspace", "section", "add", "Later", "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "journal-unreadable")
		if !strings.Contains(e.Message, filepath.Join(home, "journal")) {
			t.Errorf("the message does not name the journal to fix: %s", e.Message)
		}
		// Whatever is offered must get further than this failure.
		for _, c := range e.Commands {
			got := wsPaste(t, w, clitest.SwOwnerSK, c, "--json")
			requireFurther(t, c, r, step{Code: got.Code, Out: got.Out, Err: got.Err})
		}
	}},
	{"an interrupted workspace write: pending resume", func(t *testing.T) {
		w, e := wsInterrupted(t)
		c := clitest.CommandStarting(t, e.Commands, "roster pending resume")
		if out := clitest.DecodeOut[clitest.PendingResumeJSON](t, wsMustPaste(t, w, clitest.SwOwnerSK, c, "--json")); !out.Verified {
			t.Fatalf("%q did not finish the write: %+v", c, out)
		}
		if !slices.ContainsFunc(w.Stored().Sections, func(s sections.ProjectedSection) bool { return s.ID != wsAlpha }) {
			t.Fatal("the resumed section add is not in the workspace")
		}
	}},
	{"an interrupted workspace write: pending discard", func(t *testing.T) {
		w, e := wsInterrupted(t)
		c := clitest.CommandStarting(t, e.Commands, "roster pending discard")
		wsMustPaste(t, w, clitest.SwOwnerSK, c)
		if files := clitest.JournalFiles(t, w.Homes[clitest.SwOwnerSK]); len(files) != 0 {
			t.Fatalf("%q left %v", c, files)
		}
	}},
	{"a resumed workspace write after a competing change: rerun, show, discard", func(t *testing.T) {
		w, e := wsInterrupted(t)
		w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Competing")
		r := wsPaste(t, w, clitest.SwOwnerSK, clitest.CommandStarting(t, e.Commands, "roster pending resume"), "--json")
		cmds := wantError(t, r, cmdutil.ExitRefused, "concurrent-change").Commands
		rerun := clitest.CommandStarting(t, cmds, "roster workspace section add Later")
		out := clitest.DecodeOut[report.WorkspaceChange](t, wsMustPaste(t, w, clitest.SwOwnerSK, rerun, "--json"))
		if !slices.ContainsFunc(out.Workspace.Sections, func(s report.WorkspaceSection) bool { return s.Label == "Later" }) {
			t.Fatalf("%q added no section Later", rerun)
		}
		wsMustPaste(t, w, clitest.SwOwnerSK, clitest.CommandStarting(t, cmds, "roster workspace show"))
		wsMustPaste(t, w, clitest.SwOwnerSK, clitest.CommandStarting(t, cmds, "roster pending discard"))
	}},
	{"pending resume of a workspace write naming no relay roster can read: discard it", func(t *testing.T) {
		w, e := wsInterrupted(t)
		files := clitest.JournalFiles(t, w.Homes[clitest.SwOwnerSK])
		if len(files) != 1 {
			t.Fatalf("journal files %v", files)
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		var entry map[string]any
		if err := json.Unmarshal(b, &entry); err != nil {
			t.Fatal(err)
		}
		entry["relays"] = []string{"not a relay"}
		if b, err = json.Marshal(entry); err != nil || os.WriteFile(files[0], b, 0o600) != nil {
			t.Fatal(err)
		}
		r := wsPaste(t, w, clitest.SwOwnerSK, clitest.CommandStarting(t, e.Commands, "roster pending resume"), "--json")
		c := clitest.CommandStarting(t, wantError(t, r, cmdutil.ExitRefused, "pending-incomplete").Commands, "roster pending discard")
		wsMustPaste(t, w, clitest.SwOwnerSK, c)
		if files := clitest.JournalFiles(t, w.Homes[clitest.SwOwnerSK]); len(files) != 0 {
			t.Fatalf("%q left %v", c, files)
		}
	}},
}

// wsNoRelayRetry runs args as sk with no relay at all and returns the
// command the one-relay refusal offers, its relay filled in.
func wsNoRelayRetry(t *testing.T, w *clitest.SwWorld, sk string, args ...string) string {
	t.Helper()
	if _, ok := w.Homes[sk]; !ok {
		w.Homes[sk] = t.TempDir()
	}
	env := map[string]string{"ROSTER_SECRET_KEY": sk, "ROSTER_HOME": w.Homes[sk]}
	r := clitest.Invocation{Env: env}.Roster(t, append(args, "--json")...)
	e := wantError(t, r, cmdutil.ExitUsage, "one-relay")
	c := clitest.CommandStarting(t, e.Commands, "roster "+strings.Join(args[:2], " "))
	if !strings.Contains(c, "wss://<community relay>") {
		t.Fatalf("%v: the retry names no relay to fill in: %q", args, c)
	}
	return wsFill(c, map[string]string{"wss://<community relay>": w.Relay.URL()})
}

// wsFill fills the placeholders of a printed command.
func wsFill(line string, fill map[string]string) string {
	for k, v := range fill {
		line = strings.ReplaceAll(line, k, v)
	}
	return line
}

// wsPaste pastes line as printed (its "  # " comment left out, extra
// appended: --json to read the outcome) as sk, in their own home with
// their own key; any placeholder left unfilled is a failure.
func wsPaste(t *testing.T, w *clitest.SwWorld, sk, line string, extra ...string) clitest.Result {
	t.Helper()
	line, _, _ = strings.Cut(line, "  # ")
	if strings.Contains(line, "<") {
		t.Fatalf("a placeholder is left in %q", line)
	}
	if _, ok := w.Homes[sk]; !ok {
		w.Homes[sk] = t.TempDir()
	}
	words := clitest.ShellWords(t, line)
	if len(words) < 2 || words[0] != "roster" {
		t.Fatalf("not a roster command: %q", line)
	}
	env := map[string]string{"ROSTER_SECRET_KEY": sk, "ROSTER_HOME": w.Homes[sk]}
	return clitest.Invocation{Env: env, Seams: cmdutil.Seams{Http: w.Http}}.Roster(t, append(words[1:], extra...)...)
}

// wsMustPaste is wsPaste, requiring success.
func wsMustPaste(t *testing.T, w *clitest.SwWorld, sk, line string, extra ...string) clitest.Result {
	t.Helper()
	r := wsPaste(t, w, sk, line, extra...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("pasting %q: exit %d\n%s%s", line, r.Code, r.Out, r.Err)
	}
	return r
}

// refuseReqOfKind makes a relay refuse every REQ for kind.
func refuseReqOfKind(kind int) func(nostr.Filter) string {
	return func(f nostr.Filter) string {
		if slices.Contains(f.Kinds, kind) {
			return "error: the database is down"
		}
		return ""
	}
}

// wsLegacyUnanswered: `workspace <verb>` (import, create) with the relay
// refusing the request for the owner's legacy event prints its retry,
// which, pasted once the relay answers, migrates the workspace.
func wsLegacyUnanswered(t *testing.T, verb string) {
	t.Helper()
	w := clitest.NewSWWorld(t)
	if verb == "import" {
		w.PublishLegacy()
	}
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{RefuseREQ: refuseReqOfKind(sections.KindLegacy)})
	r := w.As(clitest.SwOwnerSK, "workspace", verb, "--json")
	c := clitest.CommandStarting(t, wantError(t, r, cmdutil.ExitIncomplete, "incomplete").Commands, "roster workspace "+verb)
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
	wsMustPaste(t, w, clitest.SwOwnerSK, c)
	if st := w.Stored(); st.Migration == nil {
		t.Fatalf("%q left no migration marker", c)
	}
}

// wsInterrupted is an imported workspace whose owner's section add lost
// its connection right after the EVENT: the error it printed.
func wsInterrupted(t *testing.T) (*clitest.SwWorld, struct {
	Code, Message string
	Commands      []string
}) {
	t.Helper()
	w := clitest.ImportedWorld(t)
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == sections.KindManage }})
	r := w.As(clitest.SwOwnerSK, "workspace", "section", "add", "Later", "--json")
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
	return w, wantError(t, r, cmdutil.ExitUnverified, "unconfirmed")
}

// wsPublishLegacy stores another legacy channel-sections blob of the
// owner (the fixture's plaintext) created at created.
func wsPublishLegacy(t *testing.T, w *clitest.SwWorld, created nostr.Timestamp) {
	t.Helper()
	s, err := signer.NewKeySigner(clitest.SwOwnerSK, "env")
	if err != nil {
		t.Fatal(err)
	}
	ct, err := s.Encrypt(context.Background(), string(sectionstest.Load(t).Canonicalization.LegacyPlaintext.Input), clitest.PubOf(t, clitest.SwOwnerSK))
	if err != nil {
		t.Fatal(err)
	}
	evt := &nostr.Event{Kind: sections.KindLegacy, CreatedAt: created, Tags: nostr.Tags{{"d", sections.LegacyD}}, Content: ct}
	if err := evt.Sign(clitest.SwOwnerSK); err != nil {
		t.Fatal(err)
	}
	if err := w.Relay.PublishAs(evt.PubKey, evt); err != nil {
		t.Fatal(err)
	}
}

// fillWorkspaceJournal fills the journal in home with unfinished writes of another
// workspace, one event each, up to its bound (written as the journal
// writes them, without its fsyncs: nothing here needs to survive a crash).
func fillWorkspaceJournal(t *testing.T, home, relay string) {
	t.Helper()
	dir := filepath.Join(home, "journal")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	addr := "nip-sw:elsewhere.example:" + clitest.PubOf(t, clitest.SwForgerSK)
	now := nostr.Now() // once: each event its own second, so its own id
	for i := range journal.MaxEntries {
		evt := &nostr.Event{Kind: sections.KindManage, CreatedAt: now - nostr.Timestamp(i), Tags: nostr.Tags{}, Content: "{}"}
		if err := evt.Sign(clitest.SwOwnerSK); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(journal.Entry{Version: journal.Version, Write: evt.ID, Of: 1, Pipeline: sections.PipelineCommand,
			Command: []string{"workspace", "section", "add", "X"}, Repo: addr, Address: addr + ":" + evt.ID, Relays: []string{relay},
			Event: evt, Signed: time.Now().UTC()})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, evt.ID+"-0.json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
