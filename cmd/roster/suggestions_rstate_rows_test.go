package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/journal"
)

// Rows of TestEveryPrintedCommandMovesForward for repository state
// (repo state, repo state publish, the Git servers) and projects (project
// create/show/list/update/relate/delete/health), each provoking one
// suggestion site of suggestionSites through the real command.
func init() { suggestionRows = append(suggestionRows, rstateRows...) }

// pasteAs runs a printed roster command as the person holding sk (""
// for nobody's key) in a fresh home of their own, with --json, and
// requires it to get further than before.
func pasteAs(t *testing.T, sk string, before result, line string) step {
	t.Helper()
	line, _, _ = strings.Cut(line, "  # ")
	env := map[string]string{"ROSTER_HOME": t.TempDir()}
	if sk != "" {
		env["ROSTER_SECRET_KEY"] = sk
	}
	words := shellWords(t, line)
	if len(words) == 0 || words[0] != "roster" {
		t.Fatalf("not a roster command: %q", line)
	}
	r := invocation{Env: env}.roster(t, append(words[1:], "--json")...)
	got := step{Code: r.Code, Out: r.Out, Err: r.Err}
	requireFurther(t, line, before, got)
	return got
}

// healthCommands are the "commands" of a project health document.
func healthCommands(t *testing.T, r result) []string {
	t.Helper()
	var h struct {
		Schema   string   `json:"schema"`
		Commands []string `json:"commands"`
	}
	if err := json.Unmarshal([]byte(r.Out), &h); err != nil || h.Schema != "roster.project-health/v1" {
		t.Fatalf("exit %d %v\n%s%s", r.Code, err, r.Out, r.Err)
	}
	return h.Commands
}

// wantHealthNext: the human report and --format github of the same health
// print every one of cmds.
func wantHealthNext(t *testing.T, w *pcWorld, cmds []string, args ...string) {
	t.Helper()
	human := w.as(pcStrangerSK, args...)
	gh := w.as(pcStrangerSK, append(args, "--format", "github")...)
	for _, c := range cmds {
		if !strings.Contains(human.Out, "next:         "+c) {
			t.Errorf("the human report lacks %q:\n%s", c, human.Out)
		}
		if !strings.Contains(gh.Out, "::notice title=roster%3A next::") || !strings.Contains(gh.Out, c) {
			t.Errorf("--format github lacks %q:\n%s", c, gh.Out)
		}
	}
}

var rstateRows = []suggestionRow{
	{"project health with a member no relay holds: project show", func(t *testing.T) {
		w := newPCWorld(t)
		good := w.memberRepo("alpha", false)
		w.identity(nostr.Now()-10, nostr.Tag{"a", good}, nostr.Tag{"a", "30617:" + pubOf(t, prLeadSK) + ":nowhere"})
		args := []string{"project", "health", w.coord.String()}
		r := w.as(pcStrangerSK, append(args, "--json")...)
		if r.Code != cmdutil.ExitIncomplete {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		cmds := healthCommands(t, r)
		c := commandStarting(t, cmds, "roster project show")
		wantHealthNext(t, w, cmds, args...)
		if got := pasteAs(t, pcStrangerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project health with a relay silent about the project: project show", func(t *testing.T) {
		w := newPCWorld(t)
		w.identity(nostr.Now() - 10)
		args := []string{"project", "health", w.coord.String(), "--relay", "ws://127.0.0.1:1"}
		r := w.as(pcStrangerSK, append(args, "--json")...)
		if r.Code != cmdutil.ExitIncomplete {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		cmds := healthCommands(t, r)
		c := commandStarting(t, cmds, "roster project show")
		wantHealthNext(t, w, cmds, args...)
		pasteAs(t, pcStrangerSK, r, c)
	}},
	{"project show --offline with nothing cached: read it online", func(t *testing.T) {
		w := newPCWorld(t)
		w.identity(nostr.Now() - 10)
		r := w.as(pcStrangerSK, "project", "show", w.coord.String(), "--offline", "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "offline-miss")
		c := commandStarting(t, e.Commands, "roster project show")
		if strings.Contains(c, "--offline") {
			t.Errorf("the suggestion keeps --offline: %q", c)
		}
		if got := pasteAs(t, pcStrangerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project create, update and delete given two relays: the one hosting the project", func(t *testing.T) {
		w := newPCWorld(t)
		other := devrelay.StartN(t, 1, devrelay.Options{})[0]
		for _, args := range [][]string{
			{"project", "create", "fresh", "--name", "Fresh"},
			{"project", "update", w.coord.String(), "--name", "Renamed"},
			{"project", "delete", w.coord.String()},
		} {
			if args[1] == "update" {
				w.identity(nostr.Now() - 10)
			}
			r := w.as(pcOwnerSK, append(args, "--relay", other.URL(), "--json")...)
			e := wantError(t, r, cmdutil.ExitUsage, "one-relay")
			c := commandStarting(t, e.Commands, "roster project "+args[1])
			line := strings.ReplaceAll(c, "wss://<relay hosting the project>", w.relay.URL())
			if got := pasteAs(t, pcOwnerSK, r, line); got.Code != cmdutil.ExitOK {
				t.Fatalf("%q: exit %d\n%s%s", line, got.Code, got.Out, got.Err)
			}
		}
		if st := w.stored(); !st.Deleted {
			t.Fatalf("the pasted delete left %+v", st)
		}
	}},
	{"project list with no relay to ask: --relay", func(t *testing.T) {
		w := newPCWorld(t)
		w.identity(nostr.Now() - 10)
		env := map[string]string{"ROSTER_HOME": t.TempDir(), "ROSTER_SECRET_KEY": pcOwnerSK}
		r := invocation{Env: env}.roster(t, "project", "list", "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "no-relays")
		c := strings.ReplaceAll(commandStarting(t, e.Commands, "roster project list"), "wss://<relay>", w.relay.URL())
		if got := pasteAs(t, pcOwnerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project list whose relay timed out: the retry, with longer", func(t *testing.T) {
		w := newPCWorld(t)
		w.identity(nostr.Now() - 10)
		w.relay.SetMisbehaviour(devrelay.Misbehaviour{DelayREQ: devrelay.NthREQ(1, 3*time.Second)})
		env := map[string]string{"ROSTER_HOME": t.TempDir(), "ROSTER_SECRET_KEY": pcOwnerSK}
		r := invocation{Env: env}.roster(t, "project", "list", "--relay", w.relay.URL(), "--timeout", "300ms", "--json")
		e := decodeOut[errorOut](t, r)
		if r.Code != cmdutil.ExitIncomplete {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		c := commandStarting(t, e.Error.Commands, "roster project list")
		if !strings.Contains(c, "--timeout 30s") {
			t.Errorf("a timed-out relay does not get longer: %q", c)
		}
		w.relay.SetMisbehaviour(devrelay.Misbehaviour{}) // the relay is back
		if got := pasteAs(t, pcOwnerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project list --owner whose NIP-05 lookup fails: --owner <npub>", func(t *testing.T) {
		w := newPCWorld(t)
		w.identity(nostr.Now() - 10)
		r := w.as(pcStrangerSK, "project", "list", "--owner", "owner@127.0.0.1:1", "--json")
		e := decodeOut[errorOut](t, r)
		c := commandStarting(t, e.Error.Commands, "roster project list --owner")
		c = strings.ReplaceAll(c, "<npub>", gitstate.EncodeNpub(w.coord.Owner))
		if got := pasteAs(t, pcStrangerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"binding a project to a channel one is no member of, in a pipe: the same with --yes", func(t *testing.T) {
		w := homeWorld(t, pcAdminSK) // the owner is no member of the channel
		for _, args := range [][]string{
			{"project", "create", "bound", "--name", "Bound", "--home-channel", pcHome},
			{"project", "update", w.coord.String(), "--home-channel", pcHome},
		} {
			if args[1] == "update" {
				w.identity(nostr.Now() - 10)
			}
			r := w.as(pcOwnerSK, append(args, "--json")...)
			e := wantError(t, r, cmdutil.ExitUsage, "confirmation-required")
			c := commandStarting(t, e.Commands, "roster project "+args[1])
			if got := pasteAs(t, pcOwnerSK, r, c); got.Code != cmdutil.ExitOK {
				t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
			}
		}
		if st := w.stored(); st.Document.HomeChannel != pcHome {
			t.Fatalf("home channel %q after the pasted --yes", st.Document.HomeChannel)
		}
	}},
	{"project update --add-repo of a repository no relay holds: look it up, or add it anyway", func(t *testing.T) {
		w := newPCWorld(t)
		w.identity(nostr.Now() - 10)
		missing := "30617:" + pubOf(t, prLeadSK) + ":nowhere"
		r := w.as(pcOwnerSK, "project", "update", w.coord.String(), "--add-repo", missing, "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "repository-unresolved")
		look := commandStarting(t, e.Commands, "roster repo --repo nostr://")
		pasteAs(t, pcStrangerSK, r, look) // not found, said so: a read, not this refusal
		retry := commandStarting(t, e.Commands, "roster project update")
		if got := pasteAs(t, pcOwnerSK, r, retry); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", retry, got.Code, got.Out, got.Err)
		}
		if st := w.stored(); len(st.Document.Members) != 1 {
			t.Fatalf("members after the pasted retry: %+v", st.Document.Members)
		}
	}},
	{"project show of a deleted project: its owner's create line", func(t *testing.T) {
		w := newPCWorld(t)
		w.identity(nostr.Now() - 10)
		if r := w.as(pcOwnerSK, "project", "delete", w.coord.String(), "--json"); r.Code != cmdutil.ExitOK {
			t.Fatalf("delete: exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		r := w.as(pcStrangerSK, "project", "show", w.coord.String())
		_, line, ok := strings.Cut(r.Out, "its owner recreates it with: ")
		line, _, _ = strings.Cut(line, "\n")
		if !ok || !strings.Contains(line, "# run by") {
			t.Fatalf("no create line for its owner:\n%s%s", r.Out, r.Err)
		}
		line = strings.ReplaceAll(line, "<name>", "Again")
		if got := pasteAs(t, pcOwnerSK, r, line); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", line, got.Code, got.Out, got.Err)
		}
		if st := w.stored(); st.Deleted || st.Document.Name != "Again" {
			t.Fatalf("relay holds %+v", st)
		}
	}},
	{"project relate of a channel already related: project show", func(t *testing.T) {
		w := newPCWorld(t)
		w.identity(nostr.Now() - 10)
		w.relateFirst(pcChanA, nostr.Now()-5)
		r := w.as(pcOwnerSK, "project", "relate", w.coord.String(), pcChanA, "--json")
		e := decodeOut[errorOut](t, r)
		if r.Code != cmdutil.ExitRefused {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		c := commandStarting(t, e.Error.Commands, "roster project show")
		if got := pasteAs(t, pcOwnerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project relate by a stranger to a project with a home channel: the channel's members", func(t *testing.T) {
		w := homeWorld(t, pcOwnerSK)
		w.identity(nostr.Now()-10, nostr.Tag{"buzz-channel", pcHome})
		r := w.as(pcStrangerSK, "project", "relate", w.coord.String(), pcChanA, "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "not-authorized")
		c := commandStarting(t, e.Commands, "roster group show "+pcHome)
		if got := pasteAs(t, pcStrangerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project create over a live project: update it, or show it", func(t *testing.T) {
		w := newPCWorld(t)
		w.identity(nostr.Now() - 10)
		r := w.as(pcOwnerSK, "project", "create", w.coord.D, "--name", "Again", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "project-exists")
		show := commandStarting(t, e.Commands, "roster project show")
		if got := pasteAs(t, pcOwnerSK, r, show); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", show, got.Code, got.Out, got.Err)
		}
		update := strings.ReplaceAll(commandStarting(t, e.Commands, "roster project update"), "<name>", "Again")
		if got := pasteAs(t, pcOwnerSK, r, update); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", update, got.Code, got.Out, got.Err)
		}
		if st := w.stored(); st.Document.Name != "Again" {
			t.Fatalf("relay holds %+v", st.Document)
		}
	}},
	{"project update on a relay that does not hold it: show it on the one hosting it", func(t *testing.T) {
		w := newPCWorld(t)
		w.identity(nostr.Now() - 10)
		empty := devrelay.StartN(t, 1, devrelay.Options{})[0]
		env := map[string]string{"ROSTER_HOME": t.TempDir(), "ROSTER_SECRET_KEY": pcOwnerSK}
		r := invocation{Env: env}.roster(t, "project", "update", w.coord.String(), "--name", "Renamed", "--relay", empty.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "not-found")
		c := strings.ReplaceAll(commandStarting(t, e.Commands, "roster project show"), "wss://<relay hosting the project>", w.relay.URL())
		if got := pasteAs(t, pcOwnerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project update by someone not its owner: project show", func(t *testing.T) {
		w := newPCWorld(t)
		w.identity(nostr.Now() - 10)
		r := w.as(pcStrangerSK, "project", "update", w.coord.String(), "--name", "Mine", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "not-owner")
		c := commandStarting(t, e.Commands, "roster project show")
		if got := pasteAs(t, pcStrangerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"a project change the relay does not confirm: project show", func(t *testing.T) {
		w := newPCWorld(t)
		w.identity(nostr.Now() - 10)
		w.relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == 47010 }})
		r := w.as(pcOwnerSK, "project", "relate", w.coord.String(), pcChanA, "--json")
		w.relay.SetMisbehaviour(devrelay.Misbehaviour{})
		e := decodeOut[errorOut](t, r)
		if r.Code != cmdutil.ExitUnverified {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		c := commandStarting(t, e.Error.Commands, "roster project show")
		if got := pasteAs(t, pcOwnerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"repo state of a branch ahead of the published state: publish it", func(t *testing.T) {
		s := newStateRowScene(t)
		s.clone.commit("ahead")
		s.clone.git("push", "-q", "origin", "main")
		r := s.w.run(alice, alice, 1000, "repo", "state")
		c := stateLineCommand(t, r, "main is 1 commit ahead of the published state: ")
		s.pasteOK(t, alice, r, c)
	}},
	{"repo state of a published commit this checkout lacks: fetch it, then fast-forward", func(t *testing.T) {
		s := newStateRowScene(t)
		next := s.work.commit("published elsewhere")
		s.work.pushTo(s.bare, "main")
		s.w.seed(alice.state(t, s.w.id, 500, next))
		r := s.w.run(alice, alice, 1000, "repo", "state")
		fetch := stateLineCommand(t, r, "main cannot be compared with the published "+next)
		s.pasteOK(t, alice, r, fetch)
		r = s.w.run(alice, alice, 1000, "repo", "state")
		merge := stateLineCommand(t, r, "main is 1 commit behind the published state: ")
		s.pasteOK(t, alice, r, merge)
		if got := s.clone.rev("main"); got != next {
			t.Fatalf("main at %s after the pasted fast-forward, want %s", got, next)
		}
	}},
	{"repo state in a checkout whose refs cannot be read: git fsck, then publish", func(t *testing.T) {
		s := newStateRowScene(t)
		packed := filepath.Join(s.clone.dir, ".git", "packed-refs")
		good, _ := os.ReadFile(packed)
		if err := os.WriteFile(packed, append(append([]byte{}, good...), []byte("not-an-object-id refs/heads/broken\n")...), 0o644); err != nil {
			t.Fatal(err)
		}
		r := s.w.run(alice, alice, 1000, "repo", "state", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "local-refs-unreadable")
		s.paste(t, alice, r, commandStarting(t, e.Commands, "git fsck")) // says what is damaged
		p := s.w.run(alice, alice, 1000, "repo", "state", "publish", "--json")
		e = wantError(t, p, cmdutil.ExitRefused, "local-refs-unreadable")
		s.paste(t, alice, p, commandStarting(t, e.Commands, "git fsck"))
		publish := commandStarting(t, e.Commands, "roster repo state publish")
		if err := os.WriteFile(packed, good, 0o644); err != nil { // repaired, as fsck said
			t.Fatal(err)
		}
		s.pasteOK(t, alice, p, publish)
	}},
	{"repo state publish by someone who maintains nothing: who does", func(t *testing.T) {
		s := newStateRowScene(t)
		r := s.w.run(bob, alice, 1000, "repo", "state", "publish", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "not-a-maintainer")
		c := commandStarting(t, e.Commands, "roster repo")
		s.pasteOK(t, bob, r, c)
	}},
	{"repo state publish of a commit no Git server serves: push it, then publish", func(t *testing.T) {
		s := newStateRowScene(t)
		local := s.clone.commit("not pushed")
		r := s.w.run(alice, alice, 1000, "repo", "state", "publish", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "objects-unavailable")
		push := commandStarting(t, e.Commands, "git push")
		s.pasteOK(t, alice, r, push)
		if got := s.bare.rev("main"); got != local {
			t.Fatalf("the server's main is %s after the pasted push, want %s", got, local)
		}
		publish := commandStarting(t, e.Commands, "roster repo state publish")
		s.pasteOK(t, alice, r, publish)
	}},
	{"repo state publish of a repository that advertises no Git server: advertise one", func(t *testing.T) {
		s := newStateRowScene(t)
		s.w.seed(alice.announce(t, s.w.id, 200))   // no clone URL any more
		s.clone.git("branch", "dev", "origin/dev") // origin's tracking branches count no more
		s.clone.commit("next")
		s.clone.git("push", "-q", "origin", "main")
		r := s.w.run(alice, alice, 1000, "repo", "state", "publish", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "objects-unavailable")
		c := strings.ReplaceAll(commandStarting(t, e.Commands, "roster repo"), "<git-server-url>", s.cloneURL)
		s.pasteOK(t, alice, r, c)
		publish := commandStarting(t, e.Commands, "roster repo state publish")
		s.pasteOK(t, alice, r, publish)
	}},
	{"repo state publish of a rewritten history: fetch, compare, or --force", func(t *testing.T) {
		s := newStateRowScene(t)
		s.clone.git("checkout", "-q", "--orphan", "rewrite")
		rewritten := s.clone.commit("rewritten history")
		s.clone.git("branch", "-f", "main", rewritten)
		s.clone.git("checkout", "-q", "main")
		s.clone.git("branch", "-D", "rewrite")
		s.clone.git("push", "-q", "--force", s.cloneURL, "main:refs/heads/rewritten")
		r := s.w.run(alice, alice, 1000, "repo", "state", "publish", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "not-a-descendant")
		s.pasteOK(t, alice, r, commandStarting(t, e.Commands, "git fetch"))
		s.pasteOK(t, alice, r, commandStarting(t, e.Commands, "roster repo state --"))
		force := commandStarting(t, e.Commands, "roster repo state publish")
		if !strings.Contains(force, " --force") {
			t.Fatalf("no --force: %q", force)
		}
		s.pasteOK(t, alice, r, force)
	}},
	{"repo state with a Git server behind the state, then ahead of it: push, then publish", func(t *testing.T) {
		s := newStateRowScene(t)
		next := s.clone.commit("published, not pushed")
		s.w.seed(alice.sign(t, graph.KindState, 500, nostr.Tag{"d", s.w.id}, nostr.Tag{"refs/heads/main", next},
			nostr.Tag{"refs/heads/dev", s.devOID}, nostr.Tag{"refs/tags/v1", s.tagOID}, nostr.Tag{"refs/tags/v1^{}", s.mainOID},
			nostr.Tag{"HEAD", "ref: refs/heads/main"}))
		r := s.w.run(alice, alice, 1000, "repo", "state", "--json")
		push := gitServerCommand(t, r, "behind-or-rewound")
		s.pasteOK(t, alice, r, push)
		if got := s.bare.rev("main"); got != next {
			t.Fatalf("the server's main is %s after the pasted push, want %s", got, next)
		}
		s.clone.commit("pushed, not published")
		s.clone.git("push", "-q", "origin", "main")
		r = s.w.run(alice, alice, 1000, "repo", "state", "--json")
		publish := gitServerCommand(t, r, "ahead")
		s.pasteOK(t, alice, r, publish)
	}},
	{"repo state with a Git server serving commits this checkout lacks: fetch it", func(t *testing.T) {
		s := newStateRowScene(t)
		elsewhere := s.work.commit("pushed from elsewhere")
		s.work.git("push", "-q", "--force", s.cloneURL, "main")
		r := s.w.run(alice, alice, 1000, "repo", "state", "--json")
		fetch := gitServerCommand(t, r, "differs")
		s.pasteOK(t, alice, r, fetch)
		if r := s.w.run(alice, alice, 1000, "repo", "state", "--json"); gitServerVerdict(t, r) != "ahead" {
			t.Fatalf("after fetching %s the server is not told ahead:\n%s", elsewhere, r.Out)
		}
	}},
	{"repo state with a Git server diverged from the state: compare", func(t *testing.T) {
		s := newStateRowScene(t)
		s.work.git("checkout", "-q", "--orphan", "other")
		s.work.commit("another history")
		s.work.git("push", "-q", "--force", s.cloneURL, "other:main")
		s.clone.git("fetch", "-q", "origin")
		r := s.w.run(alice, alice, 1000, "repo", "state", "--json")
		c := gitServerCommand(t, r, "diverged")
		s.pasteOK(t, alice, r, c)
	}},
	{"repo state publish with a journal that cannot be read: pending, then publish", func(t *testing.T) {
		s := newStateRowScene(t)
		s.clone.commit("next")
		s.clone.git("push", "-q", "origin", "main")
		dir := filepath.Join(s.w.home["ROSTER_HOME"], "journal")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		bad := filepath.Join(dir, strings.Repeat("ef", 32)+"-0.json")
		if err := os.WriteFile(bad, []byte(`{"version":2,"repo":"`+alice.coord(s.w.id).ATag()+`"}`), 0o600); err != nil {
			t.Fatal(err)
		}
		r := s.w.run(alice, alice, 1000, "repo", "state", "publish", "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "journal-unreadable")
		pending := s.paste(t, alice, r, commandStarting(t, e.Commands, "roster pending"))
		if pending.Code != cmdutil.ExitOK || !strings.Contains(pending.Out, bad) {
			t.Fatalf("roster pending does not name %s: exit %d\n%s%s", bad, pending.Code, pending.Out, pending.Err)
		}
		s.paste(t, alice, r, "roster pending discard "+strings.Repeat("ef", 6)) // what pending says to run
		publish := commandStarting(t, e.Commands, "roster repo state publish")
		s.pasteOK(t, alice, r, publish)
	}},
	{"repo state publish with a full journal: pending, then publish", func(t *testing.T) {
		s := newStateRowScene(t)
		s.clone.commit("next")
		s.clone.git("push", "-q", "origin", "main")
		dir := filepath.Join(s.w.home["ROSTER_HOME"], "journal")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		// Entries of another version and another repository: not read,
		// not this repository's, and yet they fill the journal.
		var files []string
		for i := range journal.MaxEntries {
			f := filepath.Join(dir, fmt.Sprintf("%064x-0.json", i+1))
			files = append(files, f)
			if err := os.WriteFile(f, []byte(`{"version":99,"repo":"30617:`+bob.pk+`:elsewhere"}`), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		r := s.w.run(alice, alice, 1000, "repo", "state", "publish", "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "journal-unwritable")
		s.pasteOK(t, alice, r, commandStarting(t, e.Commands, "roster pending"))
		for _, f := range files { // made room, as pending says
			os.Remove(f)
		}
		publish := commandStarting(t, e.Commands, "roster repo state publish")
		s.pasteOK(t, alice, r, publish)
	}},
	{"repo state publish whose recheck sees a newer state: compare, then publish", func(t *testing.T) {
		s := newStateRowScene(t)
		s.clone.commit("next")
		s.clone.git("push", "-q", "origin", "main")
		s.w.seams.BeforeRecheck = func() { s.w.seed(alice.state(t, s.w.id, 900, s.mainOID)) }
		r := s.w.run(alice, alice, 1000, "repo", "state", "publish", "--json")
		s.w.seams.BeforeRecheck = nil
		e := wantError(t, r, cmdutil.ExitRefused, "concurrent-change")
		s.pasteOK(t, alice, r, commandStarting(t, e.Commands, "roster repo state --"))
		publish := commandStarting(t, e.Commands, "roster repo state publish")
		s.pasteOK(t, alice, r, publish)
	}},
	{"repo state publish no relay accepts: the same, once one does", func(t *testing.T) {
		s := newStateRowScene(t)
		s.clone.commit("next")
		s.clone.git("push", "-q", "origin", "main")
		s.w.relays[0].SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(e *nostr.Event) string {
			if e.Kind == graph.KindState {
				return "blocked: not now"
			}
			return ""
		}})
		r := s.w.run(alice, alice, 1000, "repo", "state", "publish", "--json")
		s.w.relays[0].SetMisbehaviour(devrelay.Misbehaviour{})
		e := wantError(t, r, cmdutil.ExitFailure, "publish-failed")
		publish := commandStarting(t, e.Commands, "roster repo state publish")
		s.pasteOK(t, alice, r, publish)
	}},
	{"repo state publish superseded by a newer state: compare, then publish", func(t *testing.T) {
		s := newStateRowScene(t)
		s.clone.commit("next")
		s.clone.git("push", "-q", "origin", "main")
		s.w.seams.AfterPublish = func() { s.w.seed(alice.state(t, s.w.id, 5000, s.mainOID)) }
		r := s.w.run(alice, alice, 1000, "repo", "state", "publish", "--json")
		s.w.seams.AfterPublish = nil
		e := wantError(t, r, cmdutil.ExitUnverified, "superseded")
		s.pasteOK(t, alice, r, commandStarting(t, e.Commands, "roster repo state --"))
		publish := commandStarting(t, e.Commands, "roster repo state publish")
		s.pasteOK(t, alice, r, publish)
	}},
}

// stateRowScene is stateScene whose checkout's origin is the advertised
// Git server itself (a plain git clone, so a printed git fetch of it runs
// in a test, where no git-remote-nostr is installed).
type stateRowScene struct{ *stateScene }

func newStateRowScene(t *testing.T) stateRowScene {
	t.Helper()
	s := newStateScene(t)
	s.clone.git("remote", "set-url", "origin", s.cloneURL)
	return stateRowScene{s}
}

// paste runs line as p in the checkout, with p's key and the world's home.
func (s stateRowScene) paste(t *testing.T, p person, before result, line string) step {
	t.Helper()
	line, _, _ = strings.Cut(line, "  # ")
	if strings.HasPrefix(line, "roster ") {
		line += " --json"
	}
	u := &shellUser{t: t, who: p, env: withKey(s.w.home, p), cwd: s.clone.dir, clock: newSceneClock()}
	got := u.paste(line)
	requireFurther(t, line, before, got)
	return got
}

// pasteOK is paste that must succeed.
func (s stateRowScene) pasteOK(t *testing.T, p person, before result, line string) step {
	t.Helper()
	got := s.paste(t, p, before, line)
	if got.Code != cmdutil.ExitOK {
		t.Fatalf("pasting %q: exit %d\n%s%s", line, got.Code, got.Out, got.Err)
	}
	return got
}

// stateLineCommand is the command after the line of repo state's human
// output that starts with what (once trimmed), up to the command.
func stateLineCommand(t *testing.T, r result, what string) string {
	t.Helper()
	for _, l := range strings.Split(r.Out, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, what) {
			continue
		}
		for _, start := range []string{": roster ", ": git "} {
			if i := strings.LastIndex(l, start); i >= 0 {
				return l[i+2:]
			}
		}
	}
	t.Fatalf("no line %q with a command: exit %d\n%s%s", what, r.Code, r.Out, r.Err)
	return ""
}

// gitServerCommand is the command repo state --json gives the one Git
// server, whose verdict must be verdict.
func gitServerCommand(t *testing.T, r result, verdict string) string {
	t.Helper()
	var m struct {
		GitServers []struct {
			Verdict string  `json:"verdict"`
			Command *string `json:"command"`
		} `json:"git_servers"`
	}
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil || len(m.GitServers) != 1 || m.GitServers[0].Verdict != verdict || m.GitServers[0].Command == nil {
		t.Fatalf("want one Git server %s with a command: exit %d %v\n%s%s", verdict, r.Code, err, r.Out, r.Err)
	}
	return *m.GitServers[0].Command
}

// gitServerVerdict is the one Git server's verdict in repo state --json.
func gitServerVerdict(t *testing.T, r result) string {
	t.Helper()
	var m struct {
		GitServers []struct {
			Verdict string `json:"verdict"`
		} `json:"git_servers"`
	}
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil || len(m.GitServers) != 1 {
		t.Fatalf("want one Git server: exit %d %v\n%s%s", r.Code, err, r.Out, r.Err)
	}
	return m.GitServers[0].Verdict
}
