package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/groups"
)

// Rows of TestEveryPrintedCommandMovesForward for the group commands
// (internal/cli/group, workspace/groups): each provokes a suggestion
// through the real command against a NIP-29 relay and pastes it as the
// person it is for, in that person's own roster home with their own key.
func init() { suggestionRows = append(suggestionRows, rgrpRows...) }

// grpScene is a NIP-29 relay (pcWorld) and a roster home per key, kept
// across the commands of a row (the journal and the cache live there), on
// one clock.
type grpScene struct {
	*clitest.PcWorld
	homes map[string]string
	now   int64
	fill  map[string]string
}

func newGrpScene(t *testing.T) *grpScene {
	t.Helper()
	return &grpScene{PcWorld: clitest.NewPCWorld(t), homes: map[string]string{}, now: time.Now().Unix(), fill: map[string]string{}}
}

// home is sk's own roster home.
func (g *grpScene) home(sk string) string {
	if h, ok := g.homes[sk]; ok {
		return h
	}
	h := g.T.TempDir()
	g.homes[sk] = h
	return h
}

// bare runs roster as sk in sk's home, after seconds past the scene's
// clock, with the arguments alone.
func (g *grpScene) bare(sk string, after int64, args ...string) clitest.Result {
	g.T.Helper()
	env := map[string]string{"ROSTER_HOME": g.home(sk)}
	if sk != "" {
		env["ROSTER_SECRET_KEY"] = sk
	}
	return clitest.Invocation{Env: env, Now: time.Unix(g.now+after, 0), Seams: cmdutil.Seams{Http: g.Http}}.Roster(g.T, append(args, "--timeout", "5s")...)
}

// on runs roster as sk asking the scene's relay (--relay).
func (g *grpScene) on(sk string, args ...string) clitest.Result {
	g.T.Helper()
	return g.bare(sk, 0, append(args, "--relay", g.Relay.URL())...)
}

// paste runs line as printed (placeholders filled, the comment dropped,
// --json added) as sk in sk's home, after seconds, and requires it to get
// further than before.
func (g *grpScene) paste(t *testing.T, before clitest.Result, sk string, after int64, line string) clitest.Result {
	t.Helper()
	for k, v := range g.fill {
		line = strings.ReplaceAll(line, k, v)
	}
	line, _, _ = strings.Cut(line, "  # ")
	words := clitest.ShellWords(t, line)
	if len(words) < 2 || words[0] != "roster" {
		t.Fatalf("not a roster command: %q", line)
	}
	env := map[string]string{"ROSTER_HOME": g.home(sk), "ROSTER_SECRET_KEY": sk}
	got := clitest.Invocation{Env: env, Now: time.Unix(g.now+after, 0), Seams: cmdutil.Seams{Http: g.Http}}.Roster(t, append(words[1:], "--json")...)
	requireFurther(t, line, before, step{Code: got.Code, Out: got.Out, Err: got.Err})
	return got
}

// pasteOK is paste that must succeed.
func (g *grpScene) pasteOK(t *testing.T, before clitest.Result, sk string, after int64, line string) clitest.Result {
	t.Helper()
	got := g.paste(t, before, sk, after, line)
	if got.Code != cmdutil.ExitOK {
		t.Fatalf("pasting %q: exit %d\n%s%s", line, got.Code, got.Out, got.Err)
	}
	return got
}

// homeGroup creates the scene's home channel (pcHome), the owner its
// admin.
func (g *grpScene) homeGroup() string {
	g.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	return g.Relay.URL() + "'" + clitest.PcHome
}

// refuseReads makes the relay close every REQ (a relay that does not
// answer, without waiting for a timeout) until cleared.
func refuseReads(r *devrelay.Relay) {
	r.SetMisbehaviour(devrelay.Misbehaviour{RefuseREQ: func(nostr.Filter) string { return "error: down for maintenance" }})
}

// noTimeout fails when a command for a relay that refused (not one that
// timed out) suggests a longer --timeout.
func noTimeout(t *testing.T, cmds []string) {
	t.Helper()
	for _, c := range cmds {
		if strings.Contains(c, "--timeout") {
			t.Errorf("a relay that closed the request, not one that timed out, gets a longer --timeout: %q", c)
		}
	}
}

// unansweredAfter makes r accept events but, once it accepted one of kind,
// close every REQ: the write is stored and its re-read does not complete.
func unansweredAfter(r *devrelay.Relay, kind int) {
	var sent atomic.Bool
	r.SetMisbehaviour(devrelay.Misbehaviour{
		RefuseEvent: func(e *nostr.Event) string {
			if e.Kind == kind {
				sent.Store(true)
			}
			return ""
		},
		RefuseREQ: func(nostr.Filter) string {
			if sent.Load() {
				return "error: down for maintenance"
			}
			return ""
		},
	})
}

// refuseKind makes r refuse events of kind with reason.
func refuseKind(r *devrelay.Relay, kind int, reason string) {
	r.SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(e *nostr.Event) string {
		if e.Kind == kind {
			return reason
		}
		return ""
	}})
}

// brokenJournal makes sk's journal a dangling symlink: reading it finds
// no write, and keeping one fails (the directory cannot be made). The
// returned func repairs it.
func (g *grpScene) brokenJournal(sk string) func() {
	g.T.Helper()
	dir := filepath.Join(g.home(sk), "journal")
	if err := os.Symlink(filepath.Join(g.T.TempDir(), "gone", "journal"), dir); err != nil {
		g.T.Fatal(err)
	}
	return func() {
		if err := os.Remove(dir); err != nil {
			g.T.Fatal(err)
		}
	}
}

// members are the relay's members of pcHome, by the relay-signed state.
func (g *grpScene) isMember(sk string) bool {
	return slices.Contains(g.RelayState(clitest.PcHome).Members, clitest.PubOf(g.T, sk))
}

var rgrpRows = []suggestionRow{
	{"group show with the relay not answering: the same once it is back, or another relay", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		refuseReads(g.Relay)
		r := g.on(clitest.PcStrangerSK, "group", "show", clitest.PcHome, "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "incomplete")
		noTimeout(t, e.Commands)
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group show "+clitest.PcHome+" --relay"))
		g.fill["wss://<another relay hosting the group>"] = g.Relay.URL()
		g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group show "+clitest.PcHome+" --relay wss://<another"))
	}},
	{"group show of a group the relay asked does not hold: the relay hosting it", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		empty := devrelay.StartN(t, 1, devrelay.Options{})[0]
		r := g.bare(clitest.PcStrangerSK, 0, "group", "show", clitest.PcHome, "--relay", empty.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "not-found")
		g.fill["wss://<relay hosting the group>"] = g.Relay.URL()
		g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group show "+clitest.PcHome))
	}},
	{"group show --offline with nothing cached: the online read", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		r := g.on(clitest.PcStrangerSK, "group", "show", clitest.PcHome, "--offline", "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "offline-miss")
		c := clitest.CommandStarting(t, e.Commands, "roster group show "+clitest.PcHome)
		if strings.Contains(c, "--offline") {
			t.Fatalf("the online read keeps --offline: %q", c)
		}
		g.pasteOK(t, r, clitest.PcStrangerSK, 0, c)
		// Now cached: the offline read answers.
		if again := g.on(clitest.PcStrangerSK, "group", "show", clitest.PcHome, "--offline", "--json"); again.Code != cmdutil.ExitOK {
			t.Fatalf("offline after the online read: exit %d\n%s%s", again.Code, again.Out, again.Err)
		}
	}},
	{"a group write with an unreadable journal: roster pending lists the unreadable file", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		dir := filepath.Join(g.home(clitest.PcOwnerSK), "journal")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		bad := filepath.Join(dir, strings.Repeat("ab", 32)+"-0.json")
		if err := os.WriteFile(bad, []byte(`{"version":1,"rep`), 0o600); err != nil {
			t.Fatal(err)
		}
		r := g.on(clitest.PcOwnerSK, "group", "add", clitest.PcHome, g.NpubOf(clitest.PcAdminSK), "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "journal-unreadable")
		got := g.paste(t, r, clitest.PcOwnerSK, 0, clitest.CommandStarting(t, e.Commands, "roster pending"))
		if !strings.Contains(got.Out+got.Err, filepath.Base(bad)) {
			t.Fatalf("roster pending does not name the unreadable file:\n%s%s", got.Out, got.Err)
		}
	}},
	{"a group command after an unfinished write: the notice's resume", func(t *testing.T) {
		g := newGrpScene(t)
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == grouprelay.KindEditMetadata }})
		r := g.bare(clitest.PcOwnerSK, 0, "group", "create", g.Relay.URL()+"'pizza", "--name", "Pizza", "--json")
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		wantError(t, r, cmdutil.ExitUnverified, "group-created-partly")
		next := g.bare(clitest.PcOwnerSK, 10, "group", "edit", g.Relay.URL()+"'pizza", "--about", "later", "--dry-run")
		var resume string
		for _, l := range strings.Split(next.Err, "\n") {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "run: roster pending resume") {
				resume = strings.TrimPrefix(l, "run: ")
			}
		}
		if resume == "" {
			t.Fatalf("no resume in the notice:\n%s", next.Err)
		}
		g.pasteOK(t, r, clitest.PcOwnerSK, 20, resume)
		if n := len(g.Relay.Stored(nostr.Filter{Kinds: []int{grouprelay.KindEditMetadata}, Tags: nostr.TagMap{"h": {"pizza"}}})); n != 1 {
			t.Fatalf("after the resume the relay stores %d edit-metadata", n)
		}
	}},
	{"group show --me of a group the relay does not hold: the groups it hosts", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		r := g.on(clitest.PcStrangerSK, "group", "show", "nosuch", "--me", "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "not-found")
		got := g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group list"))
		if !strings.Contains(got.Out, clitest.PcHome) {
			t.Fatalf("the list does not show the group the relay hosts:\n%s", got.Out)
		}
	}},
	{"group list with no relay to ask: --relay", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		r := g.bare(clitest.PcStrangerSK, 0, "group", "list", "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "no-relays")
		g.fill["wss://<relay>"] = g.Relay.URL()
		g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group list"))
	}},
	{"group list with the relay not answering: the same once it is back", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		refuseReads(g.Relay)
		r := g.on(clitest.PcStrangerSK, "group", "list", "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "incomplete")
		noTimeout(t, e.Commands)
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group list"))
	}},
	{"group list --mine with the relay not answering: the same once it is back", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		refuseReads(g.Relay)
		r := g.on(clitest.PcStrangerSK, "group", "list", "--mine", "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "incomplete")
		noTimeout(t, e.Commands)
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group list --mine"))
	}},
	{"group delete without --yes: the same with --yes", func(t *testing.T) {
		g := newGrpScene(t)
		ref := g.homeGroup()
		r := g.on(clitest.PcOwnerSK, "group", "delete", ref, "--reason", "closing down", "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "confirmation-required")
		c := clitest.CommandStarting(t, e.Commands, "roster group delete")
		if !strings.Contains(c, "--reason 'closing down'") {
			t.Errorf("the retry drops the --reason: %q", c)
		}
		g.pasteOK(t, r, clitest.PcOwnerSK, 0, c)
		if st := g.RelayState(clitest.PcHome); st.Metadata == nil || !st.Metadata.Deleted {
			t.Fatalf("the relay's state after the pasted delete: %+v", st.Metadata)
		}
	}},
	{"group add of a person no key names: the npub", func(t *testing.T) {
		g := newGrpScene(t)
		ref := g.homeGroup()
		g.Http, _ = clitest.Nip05Server(t, map[string]string{})
		r := g.on(clitest.PcOwnerSK, "group", "add", ref, "adam@example.com", "--role", "admin", "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "nip05")
		g.fill["<npub>"] = g.NpubOf(clitest.PcAdminSK)
		c := clitest.CommandStarting(t, e.Commands, "roster group add")
		if !strings.Contains(c, "--role admin") {
			t.Errorf("the retry drops --role: %q", c)
		}
		g.pasteOK(t, r, clitest.PcOwnerSK, 0, c)
		if roles := g.RelayState(clitest.PcHome).RolesOf(clitest.PubOf(t, clitest.PcAdminSK)); !slices.Contains(roles, "admin") {
			t.Fatalf("the pasted add did not give the role: %v", roles)
		}
	}},
	{"group invite: the invitee's join, in their own home", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		g.Group(clitest.PcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"closed"})
		// Without the code the relay refuses the invitee.
		before := g.on(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--code", "guess", "--json")
		wantError(t, before, cmdutil.ExitRefused, "relay-rejected")
		// The owner runs with --home: the join printed for the invitee
		// must not carry it.
		ownerHome := t.TempDir()
		inv := g.Ok(clitest.PcOwnerSK, "group", "invite", clitest.PcHome, "--home", ownerHome)
		if strings.Contains(inv.JoinCommand, "--home") || strings.Contains(inv.JoinCommand, ownerHome) {
			t.Fatalf("the invitee's join carries the owner's home: %q", inv.JoinCommand)
		}
		got := g.pasteOK(t, before, clitest.PcStrangerSK, 0, inv.JoinCommand)
		if !strings.Contains(got.Out, `"outcome": "joined"`) {
			t.Fatalf("the invitee is not admitted:\n%s", got.Out)
		}
	}},
	{"a group moderation whose journal cannot be written: the rerun once it can", func(t *testing.T) {
		g := newGrpScene(t)
		ref := g.homeGroup()
		repair := g.brokenJournal(clitest.PcOwnerSK)
		r := g.on(clitest.PcOwnerSK, "group", "add", ref, g.NpubOf(clitest.PcAdminSK), "--role", "admin", "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "journal-unwritable")
		if g.isMember(clitest.PcAdminSK) {
			t.Fatal("a write that could not be journaled was sent")
		}
		g.pasteOK(t, r, clitest.PcOwnerSK, 0, clitest.CommandStarting(t, e.Commands, "roster pending"))
		repair()
		g.pasteOK(t, r, clitest.PcOwnerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group add"))
		if roles := g.RelayState(clitest.PcHome).RolesOf(clitest.PubOf(t, clitest.PcAdminSK)); !slices.Contains(roles, "admin") {
			t.Fatalf("the rerun did not give the role: %v", roles)
		}
	}},
	{"a group join whose journal cannot be written: the rerun once it can", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		repair := g.brokenJournal(clitest.PcStrangerSK)
		r := g.on(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "journal-unwritable")
		repair()
		g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group join"))
		if !g.isMember(clitest.PcStrangerSK) {
			t.Fatal("the rerun did not join")
		}
	}},
	{"a member's group join --save whose journal cannot be written: the save once it can", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		g.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcStrangerSK)})
		repair := g.brokenJournal(clitest.PcStrangerSK)
		r := g.on(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--save", "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "journal-unwritable")
		repair()
		g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group join"))
		if got := g.StoredKind(10009, clitest.PubOf(t, clitest.PcStrangerSK)); len(got) != 1 {
			t.Fatalf("the save stored %d groups lists", len(got))
		}
	}},
	{"group create of a group the relay already hosts: show it", func(t *testing.T) {
		g := newGrpScene(t)
		ref := g.homeGroup()
		r := g.on(clitest.PcOwnerSK, "group", "create", ref, "--name", "Again", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "group-exists")
		g.pasteOK(t, r, clitest.PcOwnerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group show"))
	}},
	{"group create under a parent one does not administer: the parent's admins", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		r := g.on(clitest.PcStrangerSK, "group", "create", g.Relay.URL()+"'sub", "--parent", clitest.PcHome, "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "parent-not-admin")
		got := g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group show"))
		if !strings.Contains(got.Out, clitest.PubOf(t, clitest.PcOwnerSK)) {
			t.Fatalf("the parent's show does not list its admin:\n%s", got.Out)
		}
	}},
	{"a group moderation the relay refuses: the group as the relay has it", func(t *testing.T) {
		g := newGrpScene(t)
		ref := g.homeGroup()
		refuseKind(g.Relay, grouprelay.KindPutUser, "blocked: no new members today")
		r := g.on(clitest.PcOwnerSK, "group", "add", ref, g.NpubOf(clitest.PcAdminSK), "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "relay-rejected")
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		g.pasteOK(t, r, clitest.PcOwnerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group show"))
	}},
	{"a group create whose metadata the relay refuses: the edit that sets it", func(t *testing.T) {
		g := newGrpScene(t)
		refuseKind(g.Relay, grouprelay.KindEditMetadata, "blocked: names are reviewed")
		r := g.bare(clitest.PcOwnerSK, 0, "group", "create", g.Relay.URL()+"'pizza", "--name", "Pizza", "--closed", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "create-metadata-refused")
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		g.pasteOK(t, r, clitest.PcOwnerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group edit"))
		st := groups.Build("pizza", g.Relay.Self(), g.Relay.Stored(nostr.Filter{Kinds: groups.StateKinds, Tags: nostr.TagMap{"d": {"pizza"}}}))
		if st.Metadata == nil || st.Metadata.Name != "Pizza" || !st.Metadata.Closed {
			t.Fatalf("the pasted edit did not set the metadata: %+v", st.Metadata)
		}
	}},
	{"a group moderation that does not read back: show the group", func(t *testing.T) {
		g := newGrpScene(t)
		ref := g.homeGroup()
		unansweredAfter(g.Relay, grouprelay.KindPutUser)
		r := g.on(clitest.PcOwnerSK, "group", "add", ref, g.NpubOf(clitest.PcAdminSK), "--json")
		e := wantError(t, r, cmdutil.ExitUnverified, "unverified")
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		g.pasteOK(t, r, clitest.PcOwnerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group show"))
	}},
	{"a group join the relay refuses: your membership there", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		refuseKind(g.Relay, grouprelay.KindJoinRequest, "blocked: you are banned")
		r := g.on(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "relay-rejected")
		got := g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group show"))
		if !strings.Contains(got.Out, `"member": false`) {
			t.Fatalf("the membership read does not say not a member:\n%s", got.Out)
		}
	}},
	{"a group join that does not read back: your membership there", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		unansweredAfter(g.Relay, grouprelay.KindJoinRequest)
		r := g.on(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--json")
		e := wantError(t, r, cmdutil.ExitUnverified, "unverified")
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		got := g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group show"))
		if !strings.Contains(got.Out, `"member": true`) {
			t.Fatalf("the membership read does not show the join:\n%s", got.Out)
		}
	}},
	{"a group moderation of an id two relays host: the command on the one meant", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		fork := clitest.NewPCWorld(t)
		fork.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
		r := g.bare(clitest.PcOwnerSK, 0, "group", "add", clitest.PcHome, g.NpubOf(clitest.PcAdminSK), "--role", "admin", "--relay", g.Relay.URL(), "--relay", fork.Relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "ambiguous-group")
		g.pasteOK(t, r, clitest.PcOwnerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group add "+suggest.Quote(g.Relay.URL()+"'"+clitest.PcHome)))
		if roles := g.RelayState(clitest.PcHome).RolesOf(clitest.PubOf(t, clitest.PcAdminSK)); !slices.Contains(roles, "admin") {
			t.Fatalf("the pasted add did not give the role on the relay meant: %v", roles)
		}
	}},
	{"a group join of an id no relay hosts: the groups they host", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		r := g.on(clitest.PcStrangerSK, "group", "join", "nosuch", "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "not-found")
		got := g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group list"))
		if !strings.Contains(got.Out, clitest.PcHome) {
			t.Fatalf("the list does not show the hosted group:\n%s", got.Out)
		}
	}},
	{"a group join with the relay not answering: the same once it is back", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		refuseReads(g.Relay)
		r := g.on(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--reason", "hi", "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "incomplete")
		noTimeout(t, e.Commands)
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		c := clitest.CommandStarting(t, e.Commands, "roster group join")
		if !strings.Contains(c, "--reason hi") {
			t.Errorf("the retry drops --reason: %q", c)
		}
		g.pasteOK(t, r, clitest.PcStrangerSK, 0, c)
		if !g.isMember(clitest.PcStrangerSK) {
			t.Fatal("the pasted retry did not join")
		}
	}},
	{"a group join --save with a list relay not answering: the save once it is back", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		lists := devrelay.StartN(t, 1, devrelay.Options{})[0]
		refuseReads(lists)
		r := g.bare(clitest.PcStrangerSK, 0, "group", "join", g.Relay.URL()+"'"+clitest.PcHome, "--save", "--relay", lists.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "incomplete")
		noTimeout(t, e.Commands)
		lists.SetMisbehaviour(devrelay.Misbehaviour{})
		g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group join"))
		if got := lists.Stored(nostr.Filter{Kinds: []int{10009}, Authors: []string{clitest.PubOf(t, clitest.PcStrangerSK)}}); len(got) != 1 {
			t.Fatalf("the list relay stores %d groups lists", len(got))
		}
	}},
	{"a group whose relay is down and whose admins list it elsewhere: read and join it there", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		g.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
		moved := clitest.NewPCWorld(t)
		moved.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
		lists := devrelay.StartN(t, 1, devrelay.Options{})[0]
		ref := g.Relay.URL() + "'" + clitest.PcHome
		if r := g.bare(clitest.PcStrangerSK, 0, "group", "show", ref, "--relay", lists.URL(), "--json"); r.Code != cmdutil.ExitOK {
			t.Fatalf("first read: exit %d %s %s", r.Code, r.Out, r.Err)
		}
		list := &nostr.Event{Kind: groups.KindGroupsList, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"group", clitest.PcHome, moved.Relay.URL()}}}
		if err := list.Sign(clitest.PcAdminSK); err != nil {
			t.Fatal(err)
		}
		if err := lists.Publish(list); err != nil {
			t.Fatal(err)
		}
		g.Relay.Stop()
		r := g.bare(clitest.PcStrangerSK, 0, "group", "show", ref, "--relay", lists.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "incomplete")
		there := suggest.Quote(moved.Relay.URL() + "'" + clitest.PcHome)
		g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group show "+there))
		g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group join "+there))
		if !slices.Contains(moved.RelayState(clitest.PcHome).Members, clitest.PubOf(t, clitest.PcStrangerSK)) {
			t.Fatal("the pasted join did not make the stranger a member where the group moved")
		}
	}},
	{"a group write whose journal lost an event: discard it", func(t *testing.T) {
		g := newGrpScene(t)
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == grouprelay.KindCreateGroup }})
		r := g.bare(clitest.PcOwnerSK, 0, "group", "create", g.Relay.URL()+"'pizza", "--name", "Pizza", "--json")
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		write, _ := clitest.ErrorBody(t, r).Details["journal"].(string)
		if r.Code != cmdutil.ExitUnverified || len(write) != 64 {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		if err := os.Remove(filepath.Join(g.home(clitest.PcOwnerSK), "journal", write+"-1.json")); err != nil {
			t.Fatal(err)
		}
		res := g.bare(clitest.PcOwnerSK, 10, "pending", "resume", write[:12], "--json")
		e := wantError(t, res, cmdutil.ExitRefused, "pending-incomplete")
		g.pasteOK(t, res, clitest.PcOwnerSK, 10, clitest.CommandStarting(t, e.Commands, "roster pending discard"))
		if files := clitest.JournalFiles(t, g.home(clitest.PcOwnerSK)); len(files) != 0 {
			t.Fatalf("the discard left %v", files)
		}
	}},
	{"a resumed group write whose group changed meanwhile: the rerun, then the discard", func(t *testing.T) {
		g := newGrpScene(t)
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == grouprelay.KindEditMetadata }})
		r := g.bare(clitest.PcOwnerSK, 0, "group", "create", g.Relay.URL()+"'pizza", "--name", "Pizza", "--closed", "--json")
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		write, _ := clitest.ErrorBody(t, r).Details["journal"].(string)
		if r.Code != cmdutil.ExitUnverified || len(write) != 64 {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		g.MustPublish(clitest.PcOwnerSK, &nostr.Event{Kind: grouprelay.KindEditMetadata, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"h", "pizza"}, {"name", "Elsewhere"}}})
		res := g.bare(clitest.PcOwnerSK, 10, "pending", "resume", write[:12], "--json")
		e := wantError(t, res, cmdutil.ExitRefused, "concurrent-change")
		g.pasteOK(t, res, clitest.PcOwnerSK, 20, clitest.CommandStarting(t, e.Commands, "roster group edit"))
		g.pasteOK(t, res, clitest.PcOwnerSK, 30, clitest.CommandStarting(t, e.Commands, "roster pending discard"))
		st := groups.Build("pizza", g.Relay.Self(), g.Relay.Stored(nostr.Filter{Kinds: groups.StateKinds, Tags: nostr.TagMap{"d": {"pizza"}}}))
		if st.Metadata == nil || st.Metadata.Name != "Pizza" || !st.Metadata.Closed {
			t.Fatalf("after the rerun: %+v", st.Metadata)
		}
	}},
	{"a resumed group join that does not read back: your membership there", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == grouprelay.KindJoinRequest }})
		r := g.bare(clitest.PcStrangerSK, 0, "group", "join", g.Relay.URL()+"'"+clitest.PcHome, "--json")
		write, _ := clitest.ErrorBody(t, r).Details["journal"].(string)
		if r.Code != cmdutil.ExitUnverified || len(write) != 64 {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		unansweredAfter(g.Relay, grouprelay.KindJoinRequest)
		res := g.bare(clitest.PcStrangerSK, 10, "pending", "resume", write[:12], "--json")
		e := wantError(t, res, cmdutil.ExitUnverified, "unverified")
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		got := g.pasteOK(t, res, clitest.PcStrangerSK, 20, clitest.CommandStarting(t, e.Commands, "roster group show"))
		if !strings.Contains(got.Out, `"member": true`) {
			t.Fatalf("the membership read does not show the resumed join:\n%s", got.Out)
		}
	}},
	{"a resumed group write past the acceptance window: the rerun", func(t *testing.T) {
		g := newGrpScene(t)
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == grouprelay.KindEditMetadata }})
		r := g.bare(clitest.PcOwnerSK, 0, "group", "create", g.Relay.URL()+"'pizza", "--name", "Pizza", "--json")
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		write, _ := clitest.ErrorBody(t, r).Details["journal"].(string)
		if r.Code != cmdutil.ExitUnverified || len(write) != 64 {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		res := g.bare(clitest.PcOwnerSK, 16*60, "pending", "resume", write[:12], "--json")
		e := wantError(t, res, cmdutil.ExitRefused, "pending-expired")
		g.pasteOK(t, res, clitest.PcOwnerSK, 16*60+10, clitest.CommandStarting(t, e.Commands, "roster group edit"))
		st := groups.Build("pizza", g.Relay.Self(), g.Relay.Stored(nostr.Filter{Kinds: groups.StateKinds, Tags: nostr.TagMap{"d": {"pizza"}}}))
		if st.Metadata == nil || st.Metadata.Name != "Pizza" {
			t.Fatalf("after the rerun: %+v", st.Metadata)
		}
	}},
	{"a group leave the relay accepts but still counts you in: your membership there", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		g.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcStrangerSK)})
		// The relay's removal and its new member list are not served: its
		// record still makes the leaver a member.
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{Withhold: func(e *nostr.Event) bool {
			return e.Kind == grouprelay.KindRemoveUser || e.Kind == 39002
		}})
		r := g.on(clitest.PcStrangerSK, "group", "leave", clitest.PcHome, "--json")
		e := wantError(t, r, cmdutil.ExitUnverified, "still-member")
		g.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		got := g.pasteOK(t, r, clitest.PcStrangerSK, 0, clitest.CommandStarting(t, e.Commands, "roster group show"))
		if !strings.Contains(got.Out, `"member": false`) {
			t.Fatalf("the membership read does not show the leave:\n%s", got.Out)
		}
	}},
	{"a group leave --dry-run of an id two relays host: the preview on the one meant", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		g.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcStrangerSK)})
		fork := clitest.NewPCWorld(t)
		fork.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
		r := g.bare(clitest.PcStrangerSK, 0, "group", "leave", clitest.PcHome, "--dry-run", "--relay", g.Relay.URL(), "--relay", fork.Relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "ambiguous-group")
		c := clitest.CommandStarting(t, e.Commands, "roster group leave "+suggest.Quote(g.Relay.URL()+"'"+clitest.PcHome))
		if !strings.Contains(c, "--dry-run") {
			t.Errorf("a preview's suggestion is the leave itself: %q", c)
		}
		g.pasteOK(t, r, clitest.PcStrangerSK, 0, c)
		if !g.isMember(clitest.PcStrangerSK) || len(g.StoredKind(grouprelay.KindLeaveRequest, clitest.PubOf(t, clitest.PcStrangerSK))) != 0 {
			t.Fatal("pasting a preview's suggestion left the group")
		}
	}},
	{"a group add --dry-run of an id two relays host: the preview on the one meant", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		fork := clitest.NewPCWorld(t)
		fork.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
		r := g.bare(clitest.PcOwnerSK, 0, "group", "add", clitest.PcHome, g.NpubOf(clitest.PcAdminSK), "--dry-run", "--relay", g.Relay.URL(), "--relay", fork.Relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "ambiguous-group")
		c := clitest.CommandStarting(t, e.Commands, "roster group add "+suggest.Quote(g.Relay.URL()+"'"+clitest.PcHome))
		if !strings.Contains(c, "--dry-run") {
			t.Errorf("a preview's suggestion is the write itself: %q", c)
		}
		g.pasteOK(t, r, clitest.PcOwnerSK, 0, c)
		if g.isMember(clitest.PcAdminSK) {
			t.Fatal("pasting a preview's suggestion sent the add")
		}
	}},
	{"a group join and leave without --save: the groups list update they offer", func(t *testing.T) {
		g := newGrpScene(t)
		g.homeGroup()
		for _, verb := range []string{"join", "leave"} {
			out := clitest.DecodeOut[struct {
				List struct {
					Status   string   `json:"status"`
					Commands []string `json:"commands"`
				} `json:"list"`
			}](t, g.on(clitest.PcStrangerSK, "group", verb, clitest.PcHome, "--json"))
			if out.List.Status != "offered" || len(out.List.Commands) != 1 {
				t.Fatalf("%s: list %+v", verb, out.List)
			}
			got := g.pasteOK(t, clitest.Result{}, clitest.PcStrangerSK, 0, out.List.Commands[0])
			if !strings.Contains(got.Out, `"status": "saved"`) {
				t.Fatalf("%s: pasting %q did not save the list:\n%s", verb, out.List.Commands[0], got.Out)
			}
		}
		if list := g.StoredKind(10009, clitest.PubOf(t, clitest.PcStrangerSK)); len(list) != 1 || len(list[0].Tags) != 0 {
			t.Fatalf("after the join's and the leave's saves: %v", list)
		}
	}},
}
