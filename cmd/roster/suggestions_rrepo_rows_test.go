package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/journal"
)

// Rows of TestEveryPrintedCommandMovesForward for repo init and its
// announcement pipeline, the journal of unfinished writes, the cache, the
// hooks, the checkout's coordinate, login and the dev relay.
func init() { suggestionRows = append(suggestionRows, rrepoRows...) }

// inClone is p working in a fresh checkout with one commit.
func inClone(t *testing.T, p suggestPerson) (suggestPerson, *clitest.GitWork) {
	t.Helper()
	g := clitest.NewGitWork(t)
	g.Commit("first")
	p.dir = g.Dir
	return p, g
}

var rrepoRows = []suggestionRow{
	{"repo init in a checkout without commits: commit, then init", func(t *testing.T) {
		s := newSuggestScene(t)
		g := clitest.NewGitWork(t)
		p := s.alice
		p.dir = g.Dir
		r := s.roster(t, p, "repo", "init", "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "no-commits")
		s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "git commit"))
		if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster repo init")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"repo init with no relays: --relay", func(t *testing.T) {
		s := newSuggestScene(t)
		p, _ := inClone(t, s.alice)
		r := s.roster(t, p, "repo", "init", "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "no-relays")
		if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster repo init --relay")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"repo init with origin a local path: a --clone others can use", func(t *testing.T) {
		s := newSuggestScene(t)
		p, g := inClone(t, s.alice)
		g.Git("remote", "add", "origin", t.TempDir())
		r := s.roster(t, p, "repo", "init", "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "local-clone-url")
		_, url := clitest.NewBareServer(t)
		s.fill["https://<git server>/<repo>.git"] = url
		if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster repo init --clone")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"repo init with a relay not answering: another relay", func(t *testing.T) {
		s := newSuggestScene(t)
		p, _ := inClone(t, s.alice)
		r := s.roster(t, p, "repo", "init", "--relay", "ws://127.0.0.1:1", "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "incomplete")
		for _, c := range e.Commands {
			if strings.Contains(c, "--timeout") {
				t.Errorf("a refused connection suggests a longer --timeout: %q", c)
			}
		}
		s.fill["<a relay that answers>"] = s.relay.URL()
		if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster repo init --relay")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"repo init with an unreadable journal entry: pending, its discard, then init", func(t *testing.T) {
		s := newSuggestScene(t)
		p, _ := inClone(t, s.alice)
		corruptJournalEntry(t, p.home)
		r := s.roster(t, p, "repo", "init", "--identifier", "gadget", "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "journal-unreadable")
		list := s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster pending"))
		if list.Code != cmdutil.ExitOK {
			t.Fatalf("roster pending: exit %d\n%s%s", list.Code, list.Out, list.Err)
		}
		// The human list names the discard of the unreadable file.
		human := s.roster(t, p, "pending")
		discard := printedCommand(t, human.Out, "roster pending discard")
		if got := s.wantFurther(t, r, p, discard); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", discard, got.Code, got.Out, got.Err)
		}
		if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster repo init --identifier gadget")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"repo init with a full journal: pending, then init once a write is forgotten", func(t *testing.T) {
		s := newSuggestScene(t)
		p, _ := inClone(t, s.alice)
		id := fillJournal(t, p.home)
		r := s.roster(t, p, "repo", "init", "--identifier", "gadget", "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "journal-unwritable")
		if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster pending")); got.Code != cmdutil.ExitOK {
			t.Fatalf("roster pending: exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
		s.mustRoster(t, p, "pending", "discard", id[:12])
		if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster repo init --identifier gadget")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"an interrupted first repo init resumed too late: init again, then discard", func(t *testing.T) {
		s := newSuggestScene(t)
		p, _ := inClone(t, s.alice)
		s.relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == 30617 }})
		// Signed half an hour ago, past the relays' acceptance window.
		r := clitest.Invocation{Env: p.env, Dir: p.dir, Now: time.Now().Add(-30 * time.Minute)}.Roster(t, "repo", "init", "--identifier", "gadget", "--relay", s.relay.URL(), "--json")
		if r.Code != cmdutil.ExitUnverified {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		s.relay.SetMisbehaviour(devrelay.Misbehaviour{})
		resume := clitest.CommandStarting(t, clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Commands, "roster pending resume")
		got := s.roster(t, p, append(clitest.ShellWords(t, strings.SplitN(resume, "  # ", 2)[0])[1:], "--json")...)
		e := wantError(t, got, cmdutil.ExitRefused, "pending-expired")
		if c := clitest.CommandStarting(t, e.Commands, "roster repo init"); !strings.Contains(c, "# run init again") || !strings.Contains(c, "--relay "+s.relay.URL()) {
			t.Errorf("not init's own rerun, with its relays: %q", c)
		}
		if again := s.wantFurther(t, got, p, clitest.CommandStarting(t, e.Commands, "roster repo init")); again.Code != cmdutil.ExitOK {
			t.Fatalf("init again: exit %d\n%s%s", again.Code, again.Out, again.Err)
		}
		if d := s.wantFurther(t, got, p, clitest.CommandStarting(t, e.Commands, "roster pending discard")); d.Code != cmdutil.ExitOK {
			t.Fatalf("discard: exit %d\n%s%s", d.Code, d.Out, d.Err)
		}
	}},
	{"an interrupted first repo init resumed while a relay refuses the recheck: resume once it is back, no --timeout", func(t *testing.T) {
		s := newSuggestScene(t)
		p, _ := inClone(t, s.alice)
		s.relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == 30617 }})
		r := s.roster(t, p, "repo", "init", "--identifier", "gadget", "--relay", s.relay.URL(), "--json")
		if r.Code != cmdutil.ExitUnverified {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		// The repository read finds nothing; init's own recheck (the
		// author's announcements of the identifier) is refused.
		s.relay.SetMisbehaviour(devrelay.Misbehaviour{RefuseREQ: func(f nostr.Filter) string {
			if len(f.Kinds) == 1 && len(f.Authors) == 1 && f.Tags["d"] != nil && f.Until == nil && f.Limit == 0 {
				return "blocked: not now"
			}
			return ""
		}})
		resume := clitest.CommandStarting(t, clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Commands, "roster pending resume")
		got := s.roster(t, p, append(clitest.ShellWords(t, strings.SplitN(resume, "  # ", 2)[0])[1:], "--json")...)
		e := wantError(t, got, cmdutil.ExitIncomplete, "incomplete")
		c := clitest.CommandStarting(t, e.Commands, "roster pending resume")
		if strings.Contains(c, "--timeout") {
			t.Errorf("a refused request suggests a longer --timeout: %q", c)
		}
		s.relay.SetMisbehaviour(devrelay.Misbehaviour{})
		if again := s.wantFurther(t, got, p, c); again.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, again.Code, again.Out, again.Err)
		}
		if n := len(s.relay.Stored(nostr.Filter{Kinds: []int{30617}, Authors: []string{clitest.Alice.Pk}, Tags: nostr.TagMap{"d": {"gadget"}}})); n != 1 {
			t.Fatalf("the relay holds %d announcements of gadget after the resume", n)
		}
	}},
	{"a cache that does not parse: clear it", func(t *testing.T) {
		s := newSuggestScene(t)
		if err := os.WriteFile(filepath.Join(s.alice.home, "cache.db"), []byte("not a database at all, but long enough to look like one"), 0o600); err != nil {
			t.Fatal(err)
		}
		r := s.roster(t, s.alice, "cache", "info", "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "cache-corrupt")
		if got := s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster cache clear")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"a repo read whose cache does not parse: clear it, and cache info", func(t *testing.T) {
		s := newSuggestScene(t)
		if err := os.WriteFile(filepath.Join(s.alice.home, "cache.db"), []byte("not a database at all, but long enough to look like one"), 0o600); err != nil {
			t.Fatal(err)
		}
		r := s.roster(t, s.alice, "repo", "--repo", s.naddr, "--offline", "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "cache-corrupt")
		// In the order printed: clear it, then see what the cache holds.
		for _, c := range []string{clitest.CommandStarting(t, e.Commands, "roster cache clear"), clitest.CommandStarting(t, e.Commands, "roster cache info")} {
			if got := s.wantFurther(t, r, s.alice, c); got.Code != cmdutil.ExitOK {
				t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
			}
		}
	}},
	{"a NIP-05 name that does not resolve: the npub instead", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "repo", "edit", "--add-maintainer", "bob@nowhere.invalid", "--repo", s.naddr, "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "nip05")
		s.fill["<npub>"] = clitest.Bob.Npub()
		if got := s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster repo edit --add-maintainer")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"dev relay on a busy port: a free one, keeping --require-auth", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		r := clitest.Invocation{Env: map[string]string{}}.Roster(t, "dev", "relay", "--addr", ln.Addr().String(), "--require-auth", "--json")
		e := wantError(t, r, cmdutil.ExitFailure, "listen")
		c := clitest.CommandStarting(t, e.Commands, "roster dev relay")
		if !strings.Contains(c, "--require-auth") {
			t.Errorf("the way out drops --require-auth: %q", c)
		}
		pasteDevRelay(t, c)
	}},
	{"dev relay with an unknown seed: the demo, on the address given", func(t *testing.T) {
		r := clitest.Invocation{Env: map[string]string{}}.Roster(t, "dev", "relay", "--addr", "127.0.0.1:0", "--seed", "nope", "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "usage")
		c := clitest.CommandStarting(t, e.Commands, "roster dev relay --seed demo")
		if !strings.Contains(c, "--addr 127.0.0.1:0") {
			t.Errorf("the way out drops --addr (the default port may be taken): %q", c)
		}
		pasteDevRelay(t, c)
	}},
	{"repo init that a relay refuses: init again, or read the repository", func(t *testing.T) {
		s := newSuggestScene(t)
		p, _ := inClone(t, s.alice)
		s.relay.SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(e *nostr.Event) string {
			if e.Kind == 30617 {
				return "blocked: not today"
			}
			return ""
		}})
		r := s.roster(t, p, "repo", "init", "--identifier", "gadget", "--relay", s.relay.URL(), "--json")
		if r.Code != cmdutil.ExitUnverified {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		s.relay.SetMisbehaviour(devrelay.Misbehaviour{})
		cmds := clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Commands
		if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, cmds, "roster repo init")); got.Code != cmdutil.ExitOK {
			t.Fatalf("init again: exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
		if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, cmds, "roster repo --relay")); got.Code != cmdutil.ExitOK {
			t.Fatalf("read: exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"a repo read outside a checkout without --repo: the --repo, or the clone", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "repo", "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "no-coordinate")
		_, g := inClone(t, s.alice)
		g.Git("config", "nostr.repo", s.naddr)
		s.fill["<naddr|nostr://npub/identifier>"] = s.naddr
		s.fill["<your clone>"] = g.Dir
		for _, c := range []string{clitest.CommandStarting(t, e.Commands, "roster repo --repo"), clitest.CommandStarting(t, e.Commands, "cd <your clone> && roster repo")} {
			if got := s.wantFurther(t, r, s.alice, c); got.Code != cmdutil.ExitOK {
				t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
			}
		}
	}},
	{"a repo read in a checkout that names no repository: --repo, or link it", func(t *testing.T) {
		s := newSuggestScene(t)
		p, _ := inClone(t, s.alice)
		r := s.roster(t, p, "repo", "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "no-coordinate")
		s.fill["<naddr|nostr://npub/identifier>"] = s.naddr
		s.fill["<naddr>"] = s.naddr
		if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster repo --repo")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
		s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "git config nostr.repo"))
		if got := s.roster(t, p, "repo", "--relay", s.relay.URL()); got.Code != cmdutil.ExitOK {
			t.Fatalf("the linked checkout: exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"a NIP-05 coordinate that does not resolve: the naddr instead", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "repo", "--repo", "nostr://alice@nowhere.invalid/widget", "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "nip05")
		s.fill["<naddr|nostr://npub/identifier>"] = s.naddr
		if got := s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster repo --repo")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"a NIP-05 coordinate --offline: the naddr --offline, or the lookup", func(t *testing.T) {
		s := newSuggestScene(t)
		s.mustRoster(t, s.alice, "repo", "--repo", s.naddr, "--relay", s.relay.URL()) // caches it
		r := s.roster(t, s.alice, "repo", "--repo", "nostr://alice@nowhere.invalid/widget", "--offline", "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "usage")
		s.fill["<naddr|nostr://npub/identifier>"] = s.naddr
		if got := s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster repo --repo <naddr|nostr://npub/identifier> --offline")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
		s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster repo --repo nostr://alice@"))
	}},
	{"a checkout whose remotes name two repositories: each, and choosing one", func(t *testing.T) {
		s := newSuggestScene(t)
		clitest.Publish(t, s.relay.URL(), clitest.Bob.Announce(t, "widget", 100))
		p, g := inClone(t, s.alice)
		g.Git("remote", "add", "mine", "nostr://"+clitest.Alice.Npub()+"/widget")
		g.Git("remote", "add", "upstream", "nostr://"+clitest.Bob.Npub()+"/widget")
		r := s.roster(t, p, "repo", "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "ambiguous-coordinate")
		if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster repo --repo nostr://"+clitest.Bob.Npub())); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
		s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "git config nostr.repo"))
		if got := s.roster(t, p, "repo", "--relay", s.relay.URL()); got.Code != cmdutil.ExitOK {
			t.Fatalf("the chosen repository: exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"repo accept in a checkout that selects another repository: select the accepted one", func(t *testing.T) {
		s := newSuggestScene(t)
		s.mustRoster(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--repo", s.naddr, "--relay", s.relay.URL())
		p, g := inClone(t, s.bob)
		g.Git("config", "nostr.repo", clitest.Bob.Naddr("elsewhere"))
		r := s.roster(t, p, "repo", "accept", "--repo", s.naddr, "--relay", s.relay.URL())
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		c := printedCommand(t, r.Out+r.Err, "git config nostr.repo")
		s.wantFurther(t, r, p, c)
		if got := s.roster(t, p, "repo", "--relay", s.relay.URL()); got.Code != cmdutil.ExitOK || !strings.Contains(got.Out, "widget") {
			t.Fatalf("the accepted repository: exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"hooks install in a checkout that names no repository: link it, then install", func(t *testing.T) {
		s := newSuggestScene(t)
		p, _ := inClone(t, s.alice)
		r := s.roster(t, p, "hooks", "install", "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "no-coordinate")
		s.fill["<naddr|nostr-url>"] = s.naddr
		s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "git config nostr.repo"))
		if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster hooks install")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"a change through a relay serving an older version: the read", func(t *testing.T) {
		s := newSuggestScene(t)
		old := clitest.Alice.Announce(t, s.id, 100)
		s.mustRoster(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--repo", s.naddr, "--relay", s.relay.URL())
		current := map[string]bool{}
		for _, e := range s.relay.Stored(nostr.Filter{Kinds: []int{30617}, Authors: []string{clitest.Alice.Pk}}) {
			current[e.ID] = true
		}
		s.relay.Inject(old)
		s.relay.SetMisbehaviour(devrelay.Misbehaviour{Withhold: func(e *nostr.Event) bool { return current[e.ID] }})
		r := s.roster(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--repo", s.naddr, "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "stale-relays")
		s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster repo --repo"))
	}},
	{"a change whose relays are more than the bound: the read, and the change with --relay", func(t *testing.T) {
		s := newSuggestScene(t)
		many := nostr.Tag{"relays"}
		for i := range 40 {
			many = append(many, fmt.Sprintf("ws://127.0.0.1:1/r%02d", i))
		}
		clitest.Publish(t, s.relay.URL(), clitest.Bob.Announce(t, s.id, 200, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), many))
		p := s.alice
		p.env = map[string]string{"ROSTER_RELAYS": s.relay.URL()}
		for k, v := range s.alice.env {
			if k != "ROSTER_RELAYS" {
				p.env[k] = v
			}
		}
		r := s.roster(t, p, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--repo", s.naddr, "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "relay-bound")
		s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster repo --repo"))
		if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster repo edit --add-maintainer")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"a change whose announcements name more people than the bound: the graph", func(t *testing.T) {
		s := newSuggestScene(t)
		tags := []nostr.Tag{clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200")}
		for i := range 600 {
			tags = append(tags, nostr.Tag{"m", fmt.Sprintf("%064x", i+1), "200"})
		}
		clitest.Publish(t, s.relay.URL(), clitest.Alice.Announce(t, s.id, 150, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "150"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)), clitest.Bob.Announce(t, s.id, 200, tags...))
		r := s.roster(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--repo", s.naddr, "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "reach-bound")
		if got := s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster repo graph")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"hooks install outside a checkout: in the clone, with the same relays", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "hooks", "install", "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "not-a-checkout")
		_, g := inClone(t, s.alice)
		g.Git("config", "nostr.repo", s.naddr)
		s.fill["<your clone>"] = g.Dir
		c := clitest.CommandStarting(t, e.Commands, "cd <your clone> && roster hooks install")
		if !strings.Contains(c, "--relay "+s.relay.URL()) {
			t.Errorf("the install in the clone drops --relay, which the hooks would ask: %q", c)
		}
		if got := s.wantFurther(t, r, s.alice, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"hooks install or uninstall where the hooks directory cannot be made: hooks status", func(t *testing.T) {
		s := newSuggestScene(t)
		p, g := inClone(t, s.alice)
		g.Git("config", "nostr.repo", s.naddr)
		// A directory nobody can create, not even root: one in procfs.
		g.Git("config", "core.hooksPath", "/proc/self/fdinfo/hooks")
		for _, verb := range []string{"install", "uninstall"} {
			r := s.roster(t, p, "hooks", verb, "--json")
			e := wantError(t, r, cmdutil.ExitFailure, "failure")
			if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster hooks status")); got.Code != cmdutil.ExitOK {
				t.Fatalf("%s: exit %d\n%s%s", verb, got.Code, got.Out, got.Err)
			}
		}
	}},
	{"repo init in a checkout without roster's hooks: the tip's install", func(t *testing.T) {
		s := newSuggestScene(t)
		p, _ := inClone(t, s.alice)
		r := s.roster(t, p, "repo", "init", "--relay", s.relay.URL())
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		c := printedCommand(t, r.Err, "tip:")
		if got := s.wantFurther(t, r, p, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
		if again := s.roster(t, p, "repo", "init", "--relay", s.relay.URL()); strings.Contains(again.Err, "tip:") {
			t.Fatalf("the tip is still given after its install:\n%s", again.Err)
		}
	}},
	{"hooks status with a hook not current: the update", func(t *testing.T) {
		s := newSuggestScene(t)
		p, g := inClone(t, s.alice)
		g.Git("config", "nostr.repo", s.naddr)
		s.mustRoster(t, p, "hooks", "install", "--relay", s.relay.URL())
		hook := filepath.Join(g.Dir, ".git", "hooks", "pre-push")
		b, err := os.ReadFile(hook)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(hook, append(b, []byte("# an older version\n")...), 0o755); err != nil {
			t.Fatal(err)
		}
		r := s.roster(t, p, "hooks", "status")
		c := printedCommand(t, r.Out, "update with:")
		if !strings.Contains(c, "--relay "+s.relay.URL()) {
			t.Errorf("the update drops the hooks' --relay: %q", c)
		}
		if got := s.wantFurther(t, r, p, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
		if again := s.roster(t, p, "hooks", "status"); strings.Contains(again.Out, "update with:") {
			t.Fatalf("still not current after the update:\n%s", again.Out)
		}
	}},
	{"check-event with no relay to ask: the same with --relay", func(t *testing.T) {
		s := newSuggestScene(t)
		st := clitest.Alice.State(t, s.id, 200, strings.Repeat("a", 40))
		clitest.Publish(t, s.relay.URL(), st)
		r := s.roster(t, s.alice, "repo", "check-event", st.ID, "--repo", s.naddr, "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "no-relays")
		s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster repo check-event "+st.ID))
	}},
	{"login with no way chosen, or a passphrase typed differently: the login, typed right", func(t *testing.T) {
		// Each is pasted by someone not logged in yet, in a home of their own.
		paste := func(before clitest.Result, line, stdin string) {
			t.Helper()
			line, _, _ = strings.Cut(line, "  # ")
			got := clitest.Invocation{Env: clitest.HomeEnv(t), Stdin: stdin, Seams: clitest.NoKeyring}.Roster(t, append(clitest.ShellWords(t, line)[1:], "--json")...)
			requireFurther(t, line, before, step{Code: got.Code, Out: got.Out, Err: got.Err})
			if got.Code != cmdutil.ExitOK {
				t.Fatalf("%q: exit %d\n%s%s", line, got.Code, got.Out, got.Err)
			}
		}
		r := clitest.Invocation{Env: clitest.HomeEnv(t), Seams: clitest.NoKeyring}.Roster(t, "login", "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "usage")
		paste(r, clitest.CommandStarting(t, e.Commands, "roster login --generate"), "same\nsame\n")
		paste(r, clitest.CommandStarting(t, e.Commands, "roster login --nsec"), clitest.NewTestKey(t).Nsec+"\nsame\nsame\n")
		r = clitest.Invocation{Env: clitest.HomeEnv(t), Stdin: "one\ntwo\n", Seams: clitest.NoKeyring}.Roster(t, "login", "--generate", "--json")
		e = wantError(t, r, cmdutil.ExitUsage, "passphrase-mismatch")
		paste(r, clitest.CommandStarting(t, e.Commands, "roster login --generate"), "same\nsame\n")
	}},
	{"a pre-push by a maintainer the lead removed: follow the lead, or a repository of one's own", func(t *testing.T) {
		s := newSuggestScene(t)
		clitest.Publish(t, s.relay.URL(), clitest.Removal(t)...)
		c := personIn(t, clitest.Carol)
		g := clitest.NewGitWork(t)
		g.Commit("work")
		g.Git("config", "nostr.repo", gitstate.EncodeNaddr(clitest.Alice.Coord("proj"), []string{s.relay.URL()}))
		c.dir = g.Dir
		r := prePush(t, c, g, "--relay", s.relay.URL())
		e := wantError(t, r, cmdutil.ExitRefused, "push-removed-by-lead")
		s.wantFurther(t, r, c, clitest.CommandStarting(t, e.Commands, "roster repo follow-lead"))
		s.fill["<new-identifier>"] = "carols-proj"
		if got := s.wantFurther(t, r, c, clitest.CommandStarting(t, e.Commands, "roster repo init --identifier")); got.Code != cmdutil.ExitOK {
			t.Fatalf("init: exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"a pre-push of a ref that does not build on the accepted state: merge it, then push", func(t *testing.T) {
		s := newSuggestScene(t)
		p, g := inClone(t, s.bob)
		g.Git("checkout", "-q", "-b", "accepted")
		accepted := g.Commit("accepted")
		g.Git("checkout", "-q", "main")
		g.Commit("mine")
		clitest.Publish(t, s.relay.URL(),
			clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
			clitest.Bob.Announce(t, "proj", 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
			clitest.Alice.State(t, "proj", 1003, accepted))
		g.Git("config", "nostr.repo", gitstate.EncodeNaddr(clitest.Alice.Coord("proj"), []string{s.relay.URL()}))
		r := prePush(t, p, g, "--relay", s.relay.URL())
		e := wantError(t, r, cmdutil.ExitRefused, "push-not-descended")
		s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster repo state"))
		s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "git merge "+accepted))
		if again := prePush(t, p, g, "--relay", s.relay.URL()); again.Code != cmdutil.ExitOK {
			t.Fatalf("the push after the merge: exit %d\n%s%s", again.Code, again.Out, again.Err)
		}
	}},
	{"a first push after a confirmation with the relay silent: repo state once it answers", func(t *testing.T) {
		s := newSuggestScene(t)
		p, g := inClone(t, s.bob)
		head := g.Rev("HEAD")
		clitest.Publish(t, s.relay.URL(),
			clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
			clitest.Alice.State(t, "proj", 1003, head))
		naddr := gitstate.EncodeNaddr(clitest.Alice.Coord("proj"), []string{s.relay.URL()})
		s.mustRoster(t, p, "repo", "accept", "--repo", naddr, "--relay", s.relay.URL())
		g.Git("config", "nostr.repo", naddr)
		s.relay.SetSilent(true)
		r := prePush(t, p, g, "--relay", s.relay.URL(), "--timeout", "1s")
		e := wantError(t, r, cmdutil.ExitRefused, "push-needs-fresh-fetch")
		s.relay.SetSilent(false)
		if got := s.wantFurther(t, r, p, clitest.CommandStarting(t, e.Commands, "roster repo state")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
}

// corruptJournalEntry puts a journal file into home that does not parse,
// so it may be an unfinished write of any coordinate.
func corruptJournalEntry(t *testing.T, home string) {
	t.Helper()
	dir := filepath.Join(home, "journal")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, strings.Repeat("b", 64)+"-0.json"), []byte(`{"version":1,"repo":`), 0o600); err != nil {
		t.Fatal(err)
	}
}

// fillJournal fills home's journal with one unfinished write of bob's
// (another coordinate) of as many events as the journal holds, and
// returns its id.
func fillJournal(t *testing.T, home string) string {
	t.Helper()
	var entries []journal.Entry
	for i := range journal.MaxEntries {
		evt := clitest.Bob.Announce(t, fmt.Sprintf("other-%d", i), 100)
		c := clitest.Bob.Coord(evt.Tags.GetD()).ATag()
		entries = append(entries, journal.Entry{Pipeline: journal.PipelineAnnounce, Command: []string{"repo", "init"},
			Repo: c, Address: c, Relays: []string{"ws://127.0.0.1:1"}, Event: evt})
	}
	if err := journal.Open(home).Begin(entries); err != nil {
		t.Fatal(err)
	}
	return entries[0].Event.ID
}

// pasteDevRelay runs a printed roster dev relay command until it listens
// (it runs until interrupted), which is getting further than a refusal.
func pasteDevRelay(t *testing.T, line string) {
	t.Helper()
	line, _, _ = strings.Cut(line, "  # ")
	run := clitest.StartDevRelayCmd(t, append(clitest.ShellWords(t, line)[1:], "--json")...)
	if out := run.WaitOutput(t, `"url"`); !strings.Contains(out, "ws://127.0.0.1:") {
		t.Fatalf("%q: %s", line, out)
	}
}

// personIn is who with a roster home and key of their own.
func personIn(t *testing.T, who clitest.Person) suggestPerson {
	env := clitest.WithKey(clitest.TestEnv(t), who)
	return suggestPerson{who: who, home: env["ROSTER_HOME"], env: env, dir: t.TempDir()}
}

// prePush runs roster's pre-push hook as p in g, pushing g's main, as Git
// runs it (the hook's words, the refs on stdin).
func prePush(t *testing.T, p suggestPerson, g *clitest.GitWork, flags ...string) clitest.Result {
	t.Helper()
	stdin := "refs/heads/main " + g.Rev("HEAD") + " refs/heads/main " + strings.Repeat("0", 40) + "\n"
	return clitest.Invocation{Env: p.env, Dir: g.Dir, Stdin: stdin}.Roster(t, append(flags, "--json", "hooks", "run", "pre-push", "--", "server", "file:///srv")...)
}
