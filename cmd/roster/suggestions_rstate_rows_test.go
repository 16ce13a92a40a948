package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
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
}
