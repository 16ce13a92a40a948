package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (every printed command moves forward): each command roster prints
// as the next step — an error's "commands", a pipeline's next commands, a
// "next:" line, a "# run by" block — is provoked here, taken as printed,
// and run as the person it is for (a command for someone else in THEIR own
// roster home with their own key). It must get further than the failure
// that printed it: succeed, or end with another exit code or error code,
// and never be a usage error, since a printed command that does not parse
// leads nowhere. Placeholders ("<name>", "wss://<relay>") are filled with
// what the person would type.
//
// Suggestions that cannot be pasted in a test are listed in
// unpastedSuggestions with the reason, those other tests paste in
// pastedElsewhere with the test; the others have a row in suggestionRows.
func TestEveryPrintedCommandMovesForward(t *testing.T) {
	t.Parallel()
	for _, row := range suggestionRows {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			row.run(t)
		})
	}
	for _, u := range unpastedSuggestions {
		if u.where == "" || u.why == "" {
			t.Errorf("unpasted suggestion %q lacks where it is built or why it is not pasted", u.name)
		}
	}
	for _, p := range pastedElsewhere {
		if !strings.HasPrefix(p.test, "Test") {
			t.Errorf("suggestion %q names no test that pastes it", p.name)
		}
	}
}

// suggestionRow provokes one suggestion, pastes it and checks the outcome.
type suggestionRow struct {
	name string
	run  func(t *testing.T)
}

// unpastedSuggestions are the suggestions no test can paste, and why.
var unpastedSuggestions = []struct{ name, where, why string }{
	{"export ROSTER_RELAYS=wss://<relay>,...", "internal/cli/repo/relay_discovery.go noRelaysErr",
		"changes the shell's environment rather than running a command; the --relay form beside it is pasted (no-relays row)"},
	{"roster login --nsec / --bunker / --generate, roster logout && roster login", "internal/cli/cmdutil/signer_setup.go",
		"read a secret from a terminal or reach a remote signer (login_tty_test.go and bunker_e2e_test.go run them)"},
	{"printf ... | roster login --nsec", "internal/cli/cmdutil/signer_setup.go", "a shell pipeline feeding secrets"},
	{"git push --no-verify", "hooks/guard.go", "deliberately bypasses roster's pre-push check; pushing is the test of git, not of roster"},
	{"--timeout 30s / --deadline 1m (a flag alone)", "internal/cli/root/root.go checkGlobalFlags, internal/cli/cmdutil/deadline.go",
		"a flag to add to the command just typed, not a command of its own"},
	{"roster pending resume|discard <id>", "membership/journal.go PendingCommands",
		"needs a write interrupted between signing and publishing; pending_resume_e2e_test.go pastes them"},
	{"git fetch/merge/branch -f to align refs (repo state's own git fetch, merge --ff-only and fsck are pasted by rows)", "preflight/state.go, hooks/guard.go",
		"Git commands that change a checkout's refs or inspect a damaged one; repo_state_test.go and hooks_e2e_test.go cover them"},
	{"ls -l / chmod +x / rm <hook>", "hooks/files.go", "inspect or change a user's own hook files"},
}

// pastedElsewhere are suggestions other tests already paste as printed,
// as the person they are for; each is named with that test.
var pastedElsewhere = []struct{ name, test string }{
	{"guidance: the invitee's roster repo accept, the lead's acknowledgement", "TestMutationSuggestedCommandsRunAsPrinted"},
	{"follow-lead outside a checkout: roster repo --repo <the lead's coordinate>", "TestFollowLeadOutsideACheckoutSuggestsAWholeCommand"},
	{"not-invited: the lead's (or a maintainer's) add, run by them", "TestNotInvitedAcceptNamesWhoInvitesAndHow"},
	{"a refused relate: the project owner's relate", "TestProjectRefusalNamesTheOwnersCommandRunnableAsPrinted"},
	{"repo init over an existing announcement: the metadata edit", "TestRepoInitRefusedSuggestsTheMetadataEditThatRunsAsPasted"},
	{"roster dev relay's try: lines", "TestDemoTryLinesRunAsPrinted"},
	{"pending resume and the rerun after a competing edit", "TestResumeAfterACompetingEditSendsNothingAndOffersTheRerun"},
	{"a whole journey's share, clone and accept lines", "TestOrdinaryWorldJourney"},
}

var suggestionRows = []suggestionRow{
	{"an invited viewer's advisory: accept", func(t *testing.T) {
		s := newSuggestScene(t)
		s.mustRoster(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--repo", s.naddr, "--relay", s.relay.URL())
		r := s.roster(t, s.bob, "repo", "--repo", s.naddr, "--relay", s.relay.URL())
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		c := printedCommand(t, r.Err, "roster repo accept")
		if got := s.wantFurther(t, r, s.bob, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("bob pasting %q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"repo health with no relay answering", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "repo", "health", "--repo", s.naddr, "--relay", "ws://127.0.0.1:1", "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "incomplete")
		for _, c := range rosterCommands(e.Commands) {
			if strings.Contains(c, "--offline") {
				t.Errorf("health suggests --offline, which it refuses: %q", c)
			}
			s.wantFurther(t, r, s.alice, c)
		}
	}},
	{"an --offline cache miss keeps the naddr's relay hints", func(t *testing.T) {
		s := newSuggestScene(t)
		hinted := gitstate.EncodeNaddr(clitest.Alice.Coord(s.id), []string{s.relay.URL()})
		r := s.roster(t, s.alice, "repo", "--repo", hinted, "--offline", "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "not-found")
		cmds := rosterCommands(e.Commands)
		if len(cmds) == 0 {
			t.Fatalf("no command: %s", r.Out)
		}
		// No --relay and no ROSTER_RELAYS: the hint alone says where to ask.
		if got := s.wantFurther(t, r, s.alice, cmds[0]); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", cmds[0], got.Code, got.Out, got.Err)
		}
	}},
	{"no relays to ask: --relay and --offline", func(t *testing.T) {
		s := newSuggestScene(t)
		url := gitstate.NostrURL(clitest.Alice.Coord(s.id), nil)
		s.mustRoster(t, s.alice, "repo", "--repo", url, "--relay", s.relay.URL()) // caches it
		r := s.roster(t, s.alice, "repo", "--repo", url, "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "no-relays")
		for _, c := range rosterCommands(e.Commands) {
			if got := s.wantFurther(t, r, s.alice, c); got.Code != cmdutil.ExitOK {
				t.Errorf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
			}
		}
	}},
	{"not found: ask other relays", func(t *testing.T) {
		s := newSuggestScene(t)
		empty := devrelay.StartN(t, 1, devrelay.Options{})[0]
		r := s.roster(t, s.alice, "repo", "--repo", s.naddr, "--relay", empty.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "not-found")
		c := clitest.CommandStarting(t, e.Commands, "roster repo --repo nostr://")
		if got := s.wantFurther(t, r, s.alice, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"an unreachable relay: no --timeout, another relay instead", func(t *testing.T) {
		s := newSuggestScene(t)
		for _, args := range [][]string{
			{"repo", "--repo", s.naddr},
			{"workspace", "list"},
			{"project", "list"},
		} {
			r := s.roster(t, s.alice, append(args, "--relay", "ws://127.0.0.1:1", "--json")...)
			e := clitest.DecodeOut[clitest.ErrorOut](t, r)
			for _, c := range e.Error.Commands {
				if strings.Contains(c, "--timeout") {
					t.Errorf("%v: a refused connection suggests a longer --timeout: %q", args, c)
				}
			}
		}
		r := s.roster(t, s.alice, "repo", "--repo", s.naddr, "--relay", "ws://127.0.0.1:1", "--json")
		c := clitest.CommandStarting(t, clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Commands, "roster repo")
		if got := s.wantFurther(t, r, s.alice, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"a relay-URL typo keeps the user's --repo", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "repo", "--repo", s.naddr, "--relay", "wss//typo.example", "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "usage")
		c := clitest.CommandStarting(t, e.Commands, "roster repo")
		if !strings.Contains(c, "--repo "+s.naddr) {
			t.Fatalf("the suggestion drops --repo: %q", c)
		}
		if got := s.wantFurther(t, r, s.alice, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"an unknown subcommand: the one meant, with --help", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "repo", "helth", "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "usage")
		c := clitest.CommandStarting(t, e.Commands, "roster repo health")
		if got := s.wantFurther(t, r, s.alice, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"repo init outside a checkout", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "repo", "init", "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "not-a-checkout")
		if strings.Contains(e.Message, "--repo") {
			t.Errorf("init takes no --repo, yet the message speaks of it: %s", e.Message)
		}
		clone := clitest.NewGitWork(t)
		clone.Commit("first")
		s.fill["<your clone>"] = clone.Dir
		c := clitest.CommandStarting(t, e.Commands, "cd <your clone> && roster repo init")
		if got := s.wantFurther(t, r, s.alice, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
		if got := s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "git init")); got.Code != cmdutil.ExitOK {
			t.Fatalf("git init: exit %d %s", got.Code, got.Out)
		}
	}},
	{"an invitation's human output: the invitee's accept command", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--repo", s.naddr, "--relay", s.relay.URL(), "--home", s.alice.home)
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		// The share block says whom the lines are for ("send bob … the
		// command to accept:"), then the command; a next: line repeating
		// it is left out.
		var line, header string
		for _, l := range strings.Split(r.Out, "\n") {
			if tl := strings.TrimSpace(l); strings.HasPrefix(tl, "roster repo accept") && line == "" {
				line = tl
			} else if strings.Contains(tl, "command to accept") {
				header = tl
			}
		}
		if line == "" {
			t.Fatalf("no accept command for bob:\n%s", r.Out)
		}
		if strings.Contains(line, "--home") || strings.Contains(line, s.alice.home) {
			t.Errorf("bob's command carries alice's home: %s", line)
		}
		if !strings.Contains(header, clitest.Bob.Npub()) && !strings.Contains(line, clitest.Bob.Npub()) {
			t.Errorf("the command does not say it is bob's: %q / %q", header, line)
		}
		if got := s.wantFurther(t, r, s.bob, line); got.Code != cmdutil.ExitOK {
			t.Fatalf("bob pasting %q: exit %d\n%s%s", line, got.Code, got.Out, got.Err)
		}
	}},
	{"an invitation's share: the accept command sent to the invitee", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--repo", s.naddr, "--relay", s.relay.URL(), "--home", s.alice.home, "--json")
		var m struct {
			Share struct {
				AcceptCommand string `json:"accept_command"`
			} `json:"share"`
		}
		if err := json.Unmarshal([]byte(r.Out), &m); err != nil || r.Code != cmdutil.ExitOK || m.Share.AcceptCommand == "" {
			t.Fatalf("exit %d %v\n%s%s", r.Code, err, r.Out, r.Err)
		}
		// It carries only the repository with its relay hint: bob has no relay settings.
		if got := s.wantFurther(t, r, s.bob, m.Share.AcceptCommand); got.Code != cmdutil.ExitOK {
			t.Fatalf("bob pasting %q: exit %d\n%s%s", m.Share.AcceptCommand, got.Code, got.Out, got.Err)
		}
	}},
	{"workspace show with no workspace: the owner creates it", func(t *testing.T) {
		w := clitest.NewSWWorld(t)
		r := w.As(clitest.SwOwnerSK, "workspace", "show", "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "no-projection")
		c := clitest.CommandStarting(t, e.Commands, "roster workspace")
		if !strings.HasPrefix(c, "roster workspace create") {
			t.Fatalf("the owner is not told to create the workspace: %q", e.Commands)
		}
		if got := pasteWorkspace(t, w, clitest.SwOwnerSK, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
		w.MustAs(clitest.SwOwnerSK, "workspace", "show")
	}},
	{"workspace show by a reader without a grant: the owner's grant", func(t *testing.T) {
		w := clitest.ImportedWorld(t)
		r := w.As(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub(), "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "no-projection")
		for _, c := range e.Commands {
			if !strings.Contains(c, "  # run by "+w.OwnerNpub()) {
				t.Errorf("the reader is told to run a command of the owner's: %q", c)
			}
		}
		grant := clitest.CommandStarting(t, e.Commands, "roster workspace grant")
		if got := pasteWorkspace(t, w, clitest.SwOwnerSK, grant); got.Code != cmdutil.ExitOK {
			t.Fatalf("the owner pasting %q: exit %d\n%s%s", grant, got.Code, got.Out, got.Err)
		}
		w.MustAs(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub())
	}},
	{"workspace show of an owner who has none yet: their create, then their grant", func(t *testing.T) {
		w := clitest.NewSWWorld(t)
		r := w.As(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub(), "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "no-projection")
		for _, c := range e.Commands {
			if strings.Contains(c, "workspace import") {
				t.Errorf("a reader is told of the owner's import: %q", c)
			}
		}
		for _, c := range []string{clitest.CommandStarting(t, e.Commands, "roster workspace create"), clitest.CommandStarting(t, e.Commands, "roster workspace grant")} {
			if got := pasteWorkspace(t, w, clitest.SwOwnerSK, c); got.Code != cmdutil.ExitOK {
				t.Fatalf("the owner pasting %q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
			}
		}
		w.MustAs(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub())
	}},
	{"workspace import with nothing to import: create", func(t *testing.T) {
		w := clitest.NewSWWorld(t)
		r := w.As(clitest.SwOwnerSK, "workspace", "import", "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "no-legacy")
		c := clitest.CommandStarting(t, e.Commands, "roster workspace create")
		if got := pasteWorkspace(t, w, clitest.SwOwnerSK, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"workspace create over a legacy event: import", func(t *testing.T) {
		w := clitest.NewSWWorld(t)
		w.PublishLegacy()
		r := w.As(clitest.SwOwnerSK, "workspace", "create", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "legacy-exists")
		c := clitest.CommandStarting(t, e.Commands, "roster workspace import")
		if got := pasteWorkspace(t, w, clitest.SwOwnerSK, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
	{"project update and relate by the naddr roster printed, without --relay", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		naddr := printedProjectNaddr(t, w)
		env := map[string]string{"ROSTER_SECRET_KEY": clitest.PcOwnerSK, "ROSTER_HOME": t.TempDir()}
		for _, args := range [][]string{
			{"project", "update", naddr, "--name", "Renamed", "--json"},
			{"project", "relate", naddr, clitest.PcChanA, "--json"},
		} {
			if r := (clitest.Invocation{Env: env}).Roster(t, args...); r.Code != cmdutil.ExitOK {
				t.Fatalf("%v: exit %d\n%s%s", args, r.Code, r.Out, r.Err)
			}
		}
		if st := w.Stored(); st.Document.Name != "Renamed" || !st.Document.Related(clitest.PcChanA) {
			t.Fatalf("relay holds %+v", st.Document)
		}
	}},
	{"project relate given two relays: the one hosting the project", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		other := devrelay.StartN(t, 1, devrelay.Options{})[0]
		r := w.As(clitest.PcOwnerSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--relay", other.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "one-relay")
		c := clitest.CommandStarting(t, e.Commands, "roster project relate")
		line := strings.ReplaceAll(c, "wss://<relay hosting the project>", w.Relay.URL())
		env := map[string]string{"ROSTER_SECRET_KEY": clitest.PcOwnerSK, "ROSTER_HOME": t.TempDir()}
		got := clitest.Invocation{Env: env}.Roster(t, append(clitest.ShellWords(t, line)[1:], "--json")...)
		if got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", line, got.Code, got.Out, got.Err)
		}
	}},
	{"project show of a project the relay does not hold: another relay", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		empty := devrelay.StartN(t, 1, devrelay.Options{})[0]
		env := map[string]string{"ROSTER_HOME": t.TempDir()}
		r := clitest.Invocation{Env: env}.Roster(t, "project", "show", w.Coord.String(), "--relay", empty.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "not-found")
		c := clitest.CommandStarting(t, e.Commands, "roster project show")
		line, _, _ := strings.Cut(strings.ReplaceAll(c, "wss://<relay hosting the project>", w.Relay.URL()), "  # ")
		if got := (clitest.Invocation{Env: env}).Roster(t, append(clitest.ShellWords(t, line)[1:], "--json")...); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", line, got.Code, got.Out, got.Err)
		}
	}},
	{"a deleted project: its owner's roster project create", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		naddr := printedProjectNaddr(t, w)
		if r := w.As(clitest.PcOwnerSK, "project", "delete", naddr, "--json"); r.Code != cmdutil.ExitOK {
			t.Fatalf("delete: exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		if r := w.As(clitest.PcStrangerSK, "project", "show", naddr); !strings.Contains(r.Out, "roster project create "+w.Coord.D) {
			t.Errorf("project show of a deleted project does not name roster project create:\n%s%s", r.Out, r.Err)
		}
		r := w.As(clitest.PcOwnerSK, "project", "relate", naddr, clitest.PcChanA, "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "project-deleted")
		c := clitest.CommandStarting(t, e.Commands, "roster project create")
		line, _, _ := strings.Cut(strings.ReplaceAll(c, "<name>", "Again"), "  # ")
		env := map[string]string{"ROSTER_SECRET_KEY": clitest.PcOwnerSK, "ROSTER_HOME": t.TempDir()}
		got := clitest.Invocation{Env: env}.Roster(t, append(clitest.ShellWords(t, line)[1:], "--json")...)
		if got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
		if st := w.Stored(); st.Deleted || st.Document.Name != "Again" {
			t.Fatalf("relay holds %+v", st)
		}
	}},
}

// suggestScene is one relay holding alice's announcement of "widget", and
// alice and bob, each with their own roster home and key, in a directory
// that is no checkout.
type suggestScene struct {
	relay      *devrelay.Relay
	id, naddr  string
	alice, bob suggestPerson
	// fill are the placeholders' values.
	fill map[string]string
}

type suggestPerson struct {
	who  clitest.Person
	home string
	env  map[string]string
	dir  string
}

func newSuggestScene(t *testing.T) *suggestScene {
	t.Helper()
	s := &suggestScene{relay: devrelay.StartN(t, 1, devrelay.Options{})[0], id: "widget"}
	clitest.Publish(t, s.relay.URL(), clitest.Alice.Announce(t, s.id, 100))
	s.naddr = clitest.Alice.Naddr(s.id)
	for _, p := range []struct {
		dst *suggestPerson
		who clitest.Person
	}{{&s.alice, clitest.Alice}, {&s.bob, clitest.Bob}} {
		env := clitest.WithKey(clitest.TestEnv(t), p.who)
		*p.dst = suggestPerson{who: p.who, home: env["ROSTER_HOME"], env: env, dir: t.TempDir()}
	}
	u := s.relay.URL()
	s.fill = map[string]string{"wss://<a relay that answers>": u, "wss://<relay>": u, "wss://<a relay that has it>": u}
	return s
}

func (s *suggestScene) roster(t *testing.T, p suggestPerson, args ...string) clitest.Result {
	t.Helper()
	return clitest.Invocation{Env: p.env, Dir: p.dir}.Roster(t, args...)
}

func (s *suggestScene) mustRoster(t *testing.T, p suggestPerson, args ...string) clitest.Result {
	t.Helper()
	r := s.roster(t, p, args...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("%v: exit %d\n%s%s", args, r.Code, r.Out, r.Err)
	}
	return r
}

// wantFurther pastes line (placeholders filled) as p, in p's directory and
// home, and requires it to get further than before, the run that printed it.
func (s *suggestScene) wantFurther(t *testing.T, before clitest.Result, p suggestPerson, line string) step {
	t.Helper()
	for k, v := range s.fill {
		line = strings.ReplaceAll(line, k, v)
	}
	// A roster command alone runs with --json, so its error code can be
	// compared with the one that printed it.
	line, _, _ = strings.Cut(line, "  # ")
	if strings.HasPrefix(line, "roster ") && !strings.Contains(line, "&&") && !strings.HasSuffix(line, "--help") {
		line += " --json"
	}
	u := &shellUser{t: t, who: p.who, env: p.env, cwd: p.dir, clock: newSceneClock()}
	got := u.paste(line)
	requireFurther(t, line, before, got)
	return got
}

// requireFurther: the pasted command succeeded, or failed otherwise than
// the run that printed it, and not as a usage error.
func requireFurther(t *testing.T, line string, before clitest.Result, got step) {
	t.Helper()
	if got.Code == cmdutil.ExitOK {
		return
	}
	if got.Code == cmdutil.ExitUsage {
		t.Errorf("pasting %q is a usage error:\n%s%s", line, got.Out, got.Err)
		return
	}
	if got.Code == before.Code && clitest.ErrorCode(got.Out) == clitest.ErrorCode(before.Out) {
		t.Errorf("pasting %q fails the same way (exit %d, %q):\n%s%s", line, got.Code, clitest.ErrorCode(got.Out), got.Out, got.Err)
	}
}

// wantError requires exit code and the JSON error code, and returns the error.
func wantError(t *testing.T, r clitest.Result, code int, errCode string) struct {
	Code, Message string
	Commands      []string
} {
	t.Helper()
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if r.Code != code || e.Error.Code != errCode {
		t.Fatalf("exit %d %q, want %d %q\n%s%s", r.Code, e.Error.Code, code, errCode, r.Out, r.Err)
	}
	return struct {
		Code, Message string
		Commands      []string
	}{e.Error.Code, e.Error.Message, e.Error.Commands}
}

// rosterCommands are the roster commands among cmds.
func rosterCommands(cmds []string) []string {
	var out []string
	for _, c := range cmds {
		if strings.HasPrefix(c, "roster ") {
			out = append(out, c)
		}
	}
	return out
}

// nextLine is the command on the human "next:" line that names cmd, with
// its comment.
func nextLine(t *testing.T, out, cmd string) string {
	t.Helper()
	_, next, ok := strings.Cut(out, "\nnext:\n")
	if !ok {
		t.Fatalf("no next: section:\n%s", out)
	}
	for _, l := range strings.Split(next, "\n") {
		if i := strings.Index(l, cmd); i >= 0 {
			return strings.TrimSpace(l[i:])
		}
	}
	t.Fatalf("no line names %q:\n%s", cmd, out)
	return ""
}

// pasteWorkspace runs a printed workspace command as the person holding
// sk, in their own home of w; --timeout as w.as gives it.
func pasteWorkspace(t *testing.T, w *clitest.SwWorld, sk, line string) clitest.Result {
	t.Helper()
	line, _, _ = strings.Cut(line, "  # ")
	home, ok := w.Homes[sk]
	if !ok {
		home = t.TempDir()
		w.Homes[sk] = home
	}
	env := map[string]string{"ROSTER_SECRET_KEY": sk, "ROSTER_HOME": home}
	words := clitest.ShellWords(t, line)
	return clitest.Invocation{Env: env, Seams: cmdutil.Seams{Http: w.Http}}.Roster(t, append(words[1:], "--timeout", "5s")...)
}

// printedProjectNaddr is the naddr `project show` prints for w's project.
func printedProjectNaddr(t *testing.T, w *clitest.PcWorld) string {
	t.Helper()
	r := w.As(clitest.PcStrangerSK, "project", "show", w.Coord.String(), "--json")
	var p struct {
		Naddr string `json:"naddr"`
	}
	if err := json.Unmarshal([]byte(r.Out), &p); err != nil || p.Naddr == "" {
		t.Fatalf("project show: exit %d %v\n%s%s", r.Code, err, r.Out, r.Err)
	}
	return p.Naddr
}
