package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

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
func pasteAs(t *testing.T, sk string, before clitest.Result, line string) step {
	t.Helper()
	line, _, _ = strings.Cut(line, "  # ")
	env := map[string]string{"ROSTER_HOME": t.TempDir()}
	if sk != "" {
		env["ROSTER_SECRET_KEY"] = sk
	}
	words := clitest.ShellWords(t, line)
	if len(words) == 0 || words[0] != "roster" {
		t.Fatalf("not a roster command: %q", line)
	}
	r := clitest.Invocation{Env: env}.Roster(t, append(words[1:], "--json")...)
	got := step{Code: r.Code, Out: r.Out, Err: r.Err}
	requireFurther(t, line, before, got)
	return got
}

var rstateRows = []suggestionRow{
	{"project health with a member no relay holds: project show", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		good := w.MemberRepo("alpha", false)
		w.Identity(nostr.Now()-10, nostr.Tag{"a", good}, nostr.Tag{"a", "30617:" + clitest.PubOf(t, clitest.PrLeadSK) + ":nowhere"})
		args := []string{"project", "health", w.Coord.String()}
		r := w.As(clitest.PcStrangerSK, append(args, "--json")...)
		if r.Code != cmdutil.ExitIncomplete {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		cmds := clitest.HealthCommands(t, r)
		c := clitest.CommandStarting(t, cmds, "roster project show")
		clitest.WantHealthNext(t, w, cmds, args...)
		if got := pasteAs(t, clitest.PcStrangerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project health with a relay silent about the project: project show", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		args := []string{"project", "health", w.Coord.String(), "--relay", "ws://127.0.0.1:1"}
		r := w.As(clitest.PcStrangerSK, append(args, "--json")...)
		if r.Code != cmdutil.ExitIncomplete {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		cmds := clitest.HealthCommands(t, r)
		c := clitest.CommandStarting(t, cmds, "roster project show")
		clitest.WantHealthNext(t, w, cmds, args...)
		pasteAs(t, clitest.PcStrangerSK, r, c)
	}},
	{"project show --offline with nothing cached: read it online", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		r := w.As(clitest.PcStrangerSK, "project", "show", w.Coord.String(), "--offline", "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "offline-miss")
		c := clitest.CommandStarting(t, e.Commands, "roster project show")
		if strings.Contains(c, "--offline") {
			t.Errorf("the suggestion keeps --offline: %q", c)
		}
		if got := pasteAs(t, clitest.PcStrangerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project create, update and delete given two relays: the one hosting the project", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		other := devrelay.StartN(t, 1, devrelay.Options{})[0]
		for _, args := range [][]string{
			{"project", "create", "fresh", "--name", "Fresh"},
			{"project", "update", w.Coord.String(), "--name", "Renamed"},
			{"project", "delete", w.Coord.String()},
		} {
			if args[1] == "update" {
				w.Identity(nostr.Now() - 10)
			}
			r := w.As(clitest.PcOwnerSK, append(args, "--relay", other.URL(), "--json")...)
			e := wantError(t, r, cmdutil.ExitUsage, "one-relay")
			c := clitest.CommandStarting(t, e.Commands, "roster project "+args[1])
			line := strings.ReplaceAll(c, "wss://<relay hosting the project>", w.Relay.URL())
			if got := pasteAs(t, clitest.PcOwnerSK, r, line); got.Code != cmdutil.ExitOK {
				t.Fatalf("%q: exit %d\n%s%s", line, got.Code, got.Out, got.Err)
			}
		}
		if st := w.Stored(); !st.Deleted {
			t.Fatalf("the pasted delete left %+v", st)
		}
	}},
	{"project list with no relay to ask: --relay", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		env := map[string]string{"ROSTER_HOME": t.TempDir(), "ROSTER_SECRET_KEY": clitest.PcOwnerSK}
		r := clitest.Invocation{Env: env}.Roster(t, "project", "list", "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "no-relays")
		c := strings.ReplaceAll(clitest.CommandStarting(t, e.Commands, "roster project list"), "wss://<relay>", w.Relay.URL())
		if got := pasteAs(t, clitest.PcOwnerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project list whose relay timed out: the retry, with longer", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		w.Relay.SetMisbehaviour(devrelay.Misbehaviour{DelayREQ: devrelay.NthREQ(1, 3*time.Second)})
		env := map[string]string{"ROSTER_HOME": t.TempDir(), "ROSTER_SECRET_KEY": clitest.PcOwnerSK}
		r := clitest.Invocation{Env: env}.Roster(t, "project", "list", "--relay", w.Relay.URL(), "--timeout", "300ms", "--json")
		e := clitest.DecodeOut[clitest.ErrorOut](t, r)
		if r.Code != cmdutil.ExitIncomplete {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		c := clitest.CommandStarting(t, e.Error.Commands, "roster project list")
		if !strings.Contains(c, "--timeout 30s") {
			t.Errorf("a timed-out relay does not get longer: %q", c)
		}
		w.Relay.SetMisbehaviour(devrelay.Misbehaviour{}) // the relay is back
		if got := pasteAs(t, clitest.PcOwnerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project list --owner whose NIP-05 lookup fails: --owner <npub>", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		r := w.As(clitest.PcStrangerSK, "project", "list", "--owner", "owner@127.0.0.1:1", "--json")
		e := clitest.DecodeOut[clitest.ErrorOut](t, r)
		c := clitest.CommandStarting(t, e.Error.Commands, "roster project list --owner")
		c = strings.ReplaceAll(c, "<npub>", gitstate.EncodeNpub(w.Coord.Owner))
		if got := pasteAs(t, clitest.PcStrangerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"binding a project to a channel one is no member of, in a pipe: the same with --yes", func(t *testing.T) {
		w := clitest.HomeWorld(t, clitest.PcAdminSK) // the owner is no member of the channel
		for _, args := range [][]string{
			{"project", "create", "bound", "--name", "Bound", "--home-channel", clitest.PcHome},
			{"project", "update", w.Coord.String(), "--home-channel", clitest.PcHome},
		} {
			if args[1] == "update" {
				w.Identity(nostr.Now() - 10)
			}
			r := w.As(clitest.PcOwnerSK, append(args, "--json")...)
			e := wantError(t, r, cmdutil.ExitUsage, "confirmation-required")
			c := clitest.CommandStarting(t, e.Commands, "roster project "+args[1])
			if got := pasteAs(t, clitest.PcOwnerSK, r, c); got.Code != cmdutil.ExitOK {
				t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
			}
		}
		if st := w.Stored(); st.Document.HomeChannel != clitest.PcHome {
			t.Fatalf("home channel %q after the pasted --yes", st.Document.HomeChannel)
		}
	}},
	{"project update --add-repo of a repository no relay holds: look it up, or add it anyway", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		missing := "30617:" + clitest.PubOf(t, clitest.PrLeadSK) + ":nowhere"
		r := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--add-repo", missing, "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "repository-unresolved")
		look := clitest.CommandStarting(t, e.Commands, "roster repo --repo nostr://")
		pasteAs(t, clitest.PcStrangerSK, r, look) // not found, said so: a read, not this refusal
		retry := clitest.CommandStarting(t, e.Commands, "roster project update")
		if got := pasteAs(t, clitest.PcOwnerSK, r, retry); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", retry, got.Code, got.Out, got.Err)
		}
		if st := w.Stored(); len(st.Document.Members) != 1 {
			t.Fatalf("members after the pasted retry: %+v", st.Document.Members)
		}
	}},
	{"project show of a deleted project: its owner's create line", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		if r := w.As(clitest.PcOwnerSK, "project", "delete", w.Coord.String(), "--json"); r.Code != cmdutil.ExitOK {
			t.Fatalf("delete: exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		r := w.As(clitest.PcStrangerSK, "project", "show", w.Coord.String())
		_, line, ok := strings.Cut(r.Out, "its owner recreates it with: ")
		line, _, _ = strings.Cut(line, "\n")
		if !ok || !strings.Contains(line, "# run by") {
			t.Fatalf("no create line for its owner:\n%s%s", r.Out, r.Err)
		}
		line = strings.ReplaceAll(line, "<name>", "Again")
		if got := pasteAs(t, clitest.PcOwnerSK, r, line); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", line, got.Code, got.Out, got.Err)
		}
		if st := w.Stored(); st.Deleted || st.Document.Name != "Again" {
			t.Fatalf("relay holds %+v", st)
		}
	}},
	{"project relate of a channel already related: project show", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		w.RelateFirst(clitest.PcChanA, nostr.Now()-5)
		r := w.As(clitest.PcOwnerSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--json")
		e := clitest.DecodeOut[clitest.ErrorOut](t, r)
		if r.Code != cmdutil.ExitRefused {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		c := clitest.CommandStarting(t, e.Error.Commands, "roster project show")
		if got := pasteAs(t, clitest.PcOwnerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project relate by a stranger to a project with a home channel: the channel's members", func(t *testing.T) {
		w := clitest.HomeWorld(t, clitest.PcOwnerSK)
		w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome})
		r := w.As(clitest.PcStrangerSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "not-authorized")
		c := clitest.CommandStarting(t, e.Commands, "roster group show "+clitest.PcHome)
		if got := pasteAs(t, clitest.PcStrangerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project create over a live project: update it, or show it", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		r := w.As(clitest.PcOwnerSK, "project", "create", w.Coord.D, "--name", "Again", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "project-exists")
		show := clitest.CommandStarting(t, e.Commands, "roster project show")
		if got := pasteAs(t, clitest.PcOwnerSK, r, show); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", show, got.Code, got.Out, got.Err)
		}
		update := strings.ReplaceAll(clitest.CommandStarting(t, e.Commands, "roster project update"), "<name>", "Again")
		if got := pasteAs(t, clitest.PcOwnerSK, r, update); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", update, got.Code, got.Out, got.Err)
		}
		if st := w.Stored(); st.Document.Name != "Again" {
			t.Fatalf("relay holds %+v", st.Document)
		}
	}},
	{"project update on a relay that does not hold it: show it on the one hosting it", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		empty := devrelay.StartN(t, 1, devrelay.Options{})[0]
		env := map[string]string{"ROSTER_HOME": t.TempDir(), "ROSTER_SECRET_KEY": clitest.PcOwnerSK}
		r := clitest.Invocation{Env: env}.Roster(t, "project", "update", w.Coord.String(), "--name", "Renamed", "--relay", empty.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "not-found")
		c := strings.ReplaceAll(clitest.CommandStarting(t, e.Commands, "roster project show"), "wss://<relay hosting the project>", w.Relay.URL())
		if got := pasteAs(t, clitest.PcOwnerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project update by someone not its owner: project show", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		r := w.As(clitest.PcStrangerSK, "project", "update", w.Coord.String(), "--name", "Mine", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "not-owner")
		c := clitest.CommandStarting(t, e.Commands, "roster project show")
		if got := pasteAs(t, clitest.PcStrangerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"a project change the relay does not confirm: project show", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		w.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == 47010 }})
		r := w.As(clitest.PcOwnerSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--json")
		w.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
		e := clitest.DecodeOut[clitest.ErrorOut](t, r)
		if r.Code != cmdutil.ExitUnverified {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		c := clitest.CommandStarting(t, e.Error.Commands, "roster project show")
		if got := pasteAs(t, clitest.PcOwnerSK, r, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"repo state of a branch ahead of the published state: publish it", func(t *testing.T) {
		s := newStateRowScene(t)
		s.Clone.Commit("ahead")
		s.Clone.Git("push", "-q", "origin", "main")
		r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state")
		c := stateLineCommand(t, r, "main is 1 commit ahead of the published state: ")
		s.pasteOK(t, clitest.Alice, r, c)
	}},
	{"repo state of a published commit this checkout lacks: fetch it, then fast-forward", func(t *testing.T) {
		s := newStateRowScene(t)
		next := s.Work.Commit("published elsewhere")
		s.Work.PushTo(s.Bare, "main")
		s.W.Seed(clitest.Alice.State(t, s.W.Id, 500, next))
		r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state")
		fetch := stateLineCommand(t, r, "main cannot be compared with the published "+next)
		s.pasteOK(t, clitest.Alice, r, fetch)
		r = s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state")
		merge := stateLineCommand(t, r, "main is 1 commit behind the published state: ")
		s.pasteOK(t, clitest.Alice, r, merge)
		if got := s.Clone.Rev("main"); got != next {
			t.Fatalf("main at %s after the pasted fast-forward, want %s", got, next)
		}
	}},
	{"repo state in a checkout whose refs cannot be read: git fsck, then publish", func(t *testing.T) {
		s := newStateRowScene(t)
		packed := filepath.Join(s.Clone.Dir, ".git", "packed-refs")
		good, _ := os.ReadFile(packed)
		if err := os.WriteFile(packed, append(append([]byte{}, good...), []byte("not-an-object-id refs/heads/broken\n")...), 0o644); err != nil {
			t.Fatal(err)
		}
		r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "local-refs-unreadable")
		s.paste(t, clitest.Alice, r, clitest.CommandStarting(t, e.Commands, "git fsck")) // says what is damaged
		p := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--json")
		e = wantError(t, p, cmdutil.ExitRefused, "local-refs-unreadable")
		s.paste(t, clitest.Alice, p, clitest.CommandStarting(t, e.Commands, "git fsck"))
		publish := clitest.CommandStarting(t, e.Commands, "roster repo state publish")
		if err := os.WriteFile(packed, good, 0o644); err != nil { // repaired, as fsck said
			t.Fatal(err)
		}
		s.pasteOK(t, clitest.Alice, p, publish)
	}},
	{"repo state publish by someone who maintains nothing: who does", func(t *testing.T) {
		s := newStateRowScene(t)
		r := s.W.Run(clitest.Bob, clitest.Alice, 1000, "repo", "state", "publish", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "not-a-maintainer")
		c := clitest.CommandStarting(t, e.Commands, "roster repo")
		s.pasteOK(t, clitest.Bob, r, c)
	}},
	{"repo state publish of a commit no Git server serves: push it, then publish", func(t *testing.T) {
		s := newStateRowScene(t)
		local := s.Clone.Commit("not pushed")
		r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "objects-unavailable")
		push := clitest.CommandStarting(t, e.Commands, "git push")
		s.pasteOK(t, clitest.Alice, r, push)
		if got := s.Bare.Rev("main"); got != local {
			t.Fatalf("the server's main is %s after the pasted push, want %s", got, local)
		}
		publish := clitest.CommandStarting(t, e.Commands, "roster repo state publish")
		s.pasteOK(t, clitest.Alice, r, publish)
	}},
	{"repo state publish of a repository that advertises no Git server: advertise one", func(t *testing.T) {
		s := newStateRowScene(t)
		s.W.Seed(clitest.Alice.Announce(t, s.W.Id, 200)) // no clone URL any more
		s.Clone.Git("branch", "dev", "origin/dev")       // origin's tracking branches count no more
		s.Clone.Commit("next")
		s.Clone.Git("push", "-q", "origin", "main")
		r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "objects-unavailable")
		c := strings.ReplaceAll(clitest.CommandStarting(t, e.Commands, "roster repo"), "<git-server-url>", s.CloneURL)
		s.pasteOK(t, clitest.Alice, r, c)
		publish := clitest.CommandStarting(t, e.Commands, "roster repo state publish")
		s.pasteOK(t, clitest.Alice, r, publish)
	}},
	{"repo state publish of a rewritten history: fetch, compare, or --force", func(t *testing.T) {
		s := newStateRowScene(t)
		s.Clone.Git("checkout", "-q", "--orphan", "rewrite")
		rewritten := s.Clone.Commit("rewritten history")
		s.Clone.Git("branch", "-f", "main", rewritten)
		s.Clone.Git("checkout", "-q", "main")
		s.Clone.Git("branch", "-D", "rewrite")
		s.Clone.Git("push", "-q", "--force", s.CloneURL, "main:refs/heads/rewritten")
		r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "not-a-descendant")
		s.pasteOK(t, clitest.Alice, r, clitest.CommandStarting(t, e.Commands, "git fetch"))
		s.pasteOK(t, clitest.Alice, r, clitest.CommandStarting(t, e.Commands, "roster repo state --"))
		force := clitest.CommandStarting(t, e.Commands, "roster repo state publish")
		if !strings.Contains(force, " --force") {
			t.Fatalf("no --force: %q", force)
		}
		s.pasteOK(t, clitest.Alice, r, force)
	}},
	{"repo state with a Git server behind the state, then ahead of it: push, then publish", func(t *testing.T) {
		s := newStateRowScene(t)
		next := s.Clone.Commit("published, not pushed")
		s.W.Seed(clitest.Alice.Sign(t, graph.KindState, 500, nostr.Tag{"d", s.W.Id}, nostr.Tag{"refs/heads/main", next},
			nostr.Tag{"refs/heads/dev", s.DevOID}, nostr.Tag{"refs/tags/v1", s.TagOID}, nostr.Tag{"refs/tags/v1^{}", s.MainOID},
			nostr.Tag{"HEAD", "ref: refs/heads/main"}))
		r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "--json")
		push := gitServerCommand(t, r, "behind-or-rewound")
		s.pasteOK(t, clitest.Alice, r, push)
		if got := s.Bare.Rev("main"); got != next {
			t.Fatalf("the server's main is %s after the pasted push, want %s", got, next)
		}
		s.Clone.Commit("pushed, not published")
		s.Clone.Git("push", "-q", "origin", "main")
		r = s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "--json")
		publish := gitServerCommand(t, r, "ahead")
		s.pasteOK(t, clitest.Alice, r, publish)
	}},
	{"repo state with a Git server serving commits this checkout lacks: fetch it", func(t *testing.T) {
		s := newStateRowScene(t)
		elsewhere := s.Work.Commit("pushed from elsewhere")
		s.Work.Git("push", "-q", "--force", s.CloneURL, "main")
		r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "--json")
		fetch := gitServerCommand(t, r, "differs")
		s.pasteOK(t, clitest.Alice, r, fetch)
		if r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "--json"); gitServerVerdict(t, r) != "ahead" {
			t.Fatalf("after fetching %s the server is not told ahead:\n%s", elsewhere, r.Out)
		}
	}},
	{"repo state with a Git server diverged from the state: compare", func(t *testing.T) {
		s := newStateRowScene(t)
		s.Work.Git("checkout", "-q", "--orphan", "other")
		s.Work.Commit("another history")
		s.Work.Git("push", "-q", "--force", s.CloneURL, "other:main")
		s.Clone.Git("fetch", "-q", "origin")
		r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "--json")
		c := gitServerCommand(t, r, "diverged")
		s.pasteOK(t, clitest.Alice, r, c)
	}},
	{"repo state publish with a journal that cannot be read: pending, then publish", func(t *testing.T) {
		s := newStateRowScene(t)
		s.Clone.Commit("next")
		s.Clone.Git("push", "-q", "origin", "main")
		dir := filepath.Join(s.W.Home["ROSTER_HOME"], "journal")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		bad := filepath.Join(dir, strings.Repeat("ef", 32)+"-0.json")
		if err := os.WriteFile(bad, []byte(`{"version":2,"repo":"`+clitest.Alice.Coord(s.W.Id).ATag()+`"}`), 0o600); err != nil {
			t.Fatal(err)
		}
		r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "journal-unreadable")
		pending := s.paste(t, clitest.Alice, r, clitest.CommandStarting(t, e.Commands, "roster pending"))
		if pending.Code != cmdutil.ExitOK || !strings.Contains(pending.Out, bad) {
			t.Fatalf("roster pending does not name %s: exit %d\n%s%s", bad, pending.Code, pending.Out, pending.Err)
		}
		s.paste(t, clitest.Alice, r, "roster pending discard "+strings.Repeat("ef", 6)) // what pending says to run
		publish := clitest.CommandStarting(t, e.Commands, "roster repo state publish")
		s.pasteOK(t, clitest.Alice, r, publish)
	}},
	{"repo state publish with a full journal: pending, then publish", func(t *testing.T) {
		s := newStateRowScene(t)
		s.Clone.Commit("next")
		s.Clone.Git("push", "-q", "origin", "main")
		dir := filepath.Join(s.W.Home["ROSTER_HOME"], "journal")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		// Entries of another version and another repository: not read,
		// not this repository's, and yet they fill the journal.
		var files []string
		for i := range journal.MaxEntries {
			f := filepath.Join(dir, fmt.Sprintf("%064x-0.json", i+1))
			files = append(files, f)
			if err := os.WriteFile(f, []byte(`{"version":99,"repo":"30617:`+clitest.Bob.Pk+`:elsewhere"}`), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "journal-unwritable")
		s.pasteOK(t, clitest.Alice, r, clitest.CommandStarting(t, e.Commands, "roster pending"))
		for _, f := range files { // made room, as pending says
			os.Remove(f)
		}
		publish := clitest.CommandStarting(t, e.Commands, "roster repo state publish")
		s.pasteOK(t, clitest.Alice, r, publish)
	}},
	{"repo state publish whose recheck sees a newer state: compare, then publish", func(t *testing.T) {
		s := newStateRowScene(t)
		s.Clone.Commit("next")
		s.Clone.Git("push", "-q", "origin", "main")
		s.W.Seams.BeforeRecheck = func() { s.W.Seed(clitest.Alice.State(t, s.W.Id, 900, s.MainOID)) }
		r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--json")
		s.W.Seams.BeforeRecheck = nil
		e := wantError(t, r, cmdutil.ExitRefused, "concurrent-change")
		s.pasteOK(t, clitest.Alice, r, clitest.CommandStarting(t, e.Commands, "roster repo state --"))
		publish := clitest.CommandStarting(t, e.Commands, "roster repo state publish")
		s.pasteOK(t, clitest.Alice, r, publish)
	}},
	{"repo state publish no relay accepts: the same, once one does", func(t *testing.T) {
		s := newStateRowScene(t)
		s.Clone.Commit("next")
		s.Clone.Git("push", "-q", "origin", "main")
		s.W.Relays[0].SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(e *nostr.Event) string {
			if e.Kind == graph.KindState {
				return "blocked: not now"
			}
			return ""
		}})
		r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--json")
		s.W.Relays[0].SetMisbehaviour(devrelay.Misbehaviour{})
		e := wantError(t, r, cmdutil.ExitFailure, "publish-failed")
		publish := clitest.CommandStarting(t, e.Commands, "roster repo state publish")
		s.pasteOK(t, clitest.Alice, r, publish)
	}},
	{"repo state publish superseded by a newer state: compare, then publish", func(t *testing.T) {
		s := newStateRowScene(t)
		s.Clone.Commit("next")
		s.Clone.Git("push", "-q", "origin", "main")
		s.W.Seams.AfterPublish = func() { s.W.Seed(clitest.Alice.State(t, s.W.Id, 5000, s.MainOID)) }
		r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--json")
		s.W.Seams.AfterPublish = nil
		e := wantError(t, r, cmdutil.ExitUnverified, "superseded")
		s.pasteOK(t, clitest.Alice, r, clitest.CommandStarting(t, e.Commands, "roster repo state --"))
		publish := clitest.CommandStarting(t, e.Commands, "roster repo state publish")
		s.pasteOK(t, clitest.Alice, r, publish)
	}},
}

// stateRowScene is stateScene whose checkout's origin is the advertised
// Git server itself (a plain git clone, so a printed git fetch of it runs
// in a test, where no git-remote-nostr is installed).
type stateRowScene struct{ *clitest.StateScene }

func newStateRowScene(t *testing.T) stateRowScene {
	t.Helper()
	s := clitest.NewStateScene(t)
	s.Clone.Git("remote", "set-url", "origin", s.CloneURL)
	return stateRowScene{s}
}

// paste runs line as p in the checkout, with p's key and the world's home.
func (s stateRowScene) paste(t *testing.T, p clitest.Person, before clitest.Result, line string) step {
	t.Helper()
	line, _, _ = strings.Cut(line, "  # ")
	if strings.HasPrefix(line, "roster ") {
		line += " --json"
	}
	u := &shellUser{t: t, who: p, env: clitest.WithKey(s.W.Home, p), cwd: s.Clone.Dir, clock: newSceneClock()}
	got := u.paste(line)
	requireFurther(t, line, before, got)
	return got
}

// pasteOK is paste that must succeed.
func (s stateRowScene) pasteOK(t *testing.T, p clitest.Person, before clitest.Result, line string) step {
	t.Helper()
	got := s.paste(t, p, before, line)
	if got.Code != cmdutil.ExitOK {
		t.Fatalf("pasting %q: exit %d\n%s%s", line, got.Code, got.Out, got.Err)
	}
	return got
}

// stateLineCommand is the command after the line of repo state's human
// output that starts with what (once trimmed), up to the command.
func stateLineCommand(t *testing.T, r clitest.Result, what string) string {
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
func gitServerCommand(t *testing.T, r clitest.Result, verdict string) string {
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
func gitServerVerdict(t *testing.T, r clitest.Result) string {
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
