package main

import (
	"context"
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
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/journal"
)

// Rows of TestEveryPrintedCommandMovesForward for the membership sites:
// the graph's commands, preflight's refusals and guidance, the membership
// pipeline's failures and the journal's resume lines, each provoked through
// the real repo command and pasted as the person it is for.
func init() { suggestionRows = append(suggestionRows, rmembRows...) }

// newLeadScene is newSuggestScene holding leadShaped's repository (Alice
// leads, Bob confirmed, Carol invited, Dave a confirmed moderator) as
// "widget"; carol, dave and erin get homes of their own from s.as.
func newLeadScene(t *testing.T) *suggestScene {
	t.Helper()
	s := newSuggestScene(t)
	clitest.Publish(t, s.relay.URL(), clitest.LeadShaped(t, s.id)...)
	return s
}

// as is a person of the scene with a roster home, key and directory of
// their own (alice and bob are the scene's).
func (s *suggestScene) as(t *testing.T, p clitest.Person) suggestPerson {
	t.Helper()
	switch p.Name {
	case clitest.Alice.Name:
		return s.alice
	case clitest.Bob.Name:
		return s.bob
	}
	env := clitest.WithKey(clitest.TestEnv(t), p)
	return suggestPerson{who: p, home: env["ROSTER_HOME"], env: env, dir: t.TempDir()}
}

// change runs a repo command as p on the scene's repository and relay,
// with --json.
func (s *suggestScene) change(t *testing.T, p suggestPerson, args ...string) clitest.Result {
	t.Helper()
	return s.roster(t, p, append(args, "--repo", s.naddr, "--relay", s.relay.URL(), "--json")...)
}

// refusedWith runs s.change and requires the exit and error code; it
// returns the result and the roster commands of the error.
func (s *suggestScene) refusedWith(t *testing.T, p suggestPerson, code int, errCode string, args ...string) (clitest.Result, []string) {
	t.Helper()
	r := s.change(t, p, args...)
	e := wantError(t, r, code, errCode)
	cmds := rosterCommands(e.Commands)
	if len(cmds) == 0 {
		t.Fatalf("%v: no roster command suggested:\n%s", args, r.Out)
	}
	return r, cmds
}

// wantOK is wantFurther requiring success.
func (s *suggestScene) wantOK(t *testing.T, before clitest.Result, p suggestPerson, line string) step {
	t.Helper()
	got := s.wantFurther(t, before, p, line)
	if got.Code != cmdutil.ExitOK {
		t.Fatalf("%s pasting %q: exit %d\n%s%s", p.who.Name, line, got.Code, got.Out, got.Err)
	}
	return got
}

// before runs a repo command as p on the scene's repository and relay,
// dated k minutes after two hours ago: before anything pasted (the paste's
// clock starts an hour ago), so a pasted change replaces it.
func (s *suggestScene) before(t *testing.T, p suggestPerson, k int, args ...string) clitest.Result {
	t.Helper()
	at := time.Now().Add(-2*time.Hour + time.Duration(k)*time.Minute)
	r := clitest.Invocation{Env: p.env, Dir: p.dir, Now: at}.Roster(t, append(args, "--repo", s.naddr, "--relay", s.relay.URL())...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("%v: exit %d\n%s%s", args, r.Code, r.Out, r.Err)
	}
	return r
}

var rmembRows = []suggestionRow{
	{"adding oneself as a confirmed maintainer: who maintains it", func(t *testing.T) {
		s := newLeadScene(t)
		r, cmds := s.refusedWith(t, s.alice, cmdutil.ExitRefused, "self-add", "repo", "edit", "--add-maintainer", clitest.Alice.Npub())
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, cmds, "roster repo --repo"))
	}},
	{"an invitee adding themselves: repo accept", func(t *testing.T) {
		s := newLeadScene(t)
		carolP := s.as(t, clitest.Carol)
		r, cmds := s.refusedWith(t, carolP, cmdutil.ExitRefused, "self-add", "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
		s.wantOK(t, r, carolP, clitest.CommandStarting(t, cmds, "roster repo accept"))
	}},
	{"a maintainer appointing themselves moderator: who moderates it", func(t *testing.T) {
		s := newLeadScene(t)
		for _, p := range []clitest.Person{clitest.Alice, clitest.Dave, clitest.Erin} {
			pp := s.as(t, p)
			r, cmds := s.refusedWith(t, pp, cmdutil.ExitRefused, "self-add", "repo", "edit", "--add-moderator", p.Npub())
			s.wantOK(t, r, pp, clitest.CommandStarting(t, cmds, "roster repo --repo"))
		}
	}},
	{"an invited moderator appointing themselves: accept --moderator", func(t *testing.T) {
		s := newLeadScene(t)
		s.before(t, s.alice, 1, "repo", "edit", "--add-moderator", clitest.Erin.Npub())
		erinP := s.as(t, clitest.Erin)
		r, cmds := s.refusedWith(t, erinP, cmdutil.ExitRefused, "self-add", "repo", "edit", "--add-moderator", clitest.Erin.Npub())
		s.wantOK(t, r, erinP, clitest.CommandStarting(t, cmds, "roster repo accept --moderator"))
		after := s.mustRoster(t, erinP, "repo", "--repo", s.naddr, "--relay", s.relay.URL(), "--json")
		if !strings.Contains(after.Out, clitest.Erin.Npub()) {
			t.Fatalf("erin is no moderator after accepting:\n%s", after.Out)
		}
	}},
	{"removing a moderator one does not assign: who moderates it", func(t *testing.T) {
		s := newLeadScene(t)
		r, cmds := s.refusedWith(t, s.alice, cmdutil.ExitRefused, "not-listed", "repo", "edit", "--remove-moderator", clitest.Erin.Npub())
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, cmds, "roster repo --repo"))
	}},
	{"the lead removing themselves as moderator: repo leave, which says how to hand over", func(t *testing.T) {
		s := newLeadScene(t)
		r, cmds := s.refusedWith(t, s.alice, cmdutil.ExitRefused, "self-remove", "repo", "edit", "--remove-moderator", clitest.Alice.Npub())
		s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, cmds, "roster repo leave"))
	}},
	{"a leadless maintainer removing themselves: repo leave", func(t *testing.T) {
		s := newSuggestScene(t)
		s.before(t, s.alice, 1, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--no-lead-maintainer")
		s.before(t, s.bob, 2, "repo", "accept")
		r, cmds := s.refusedWith(t, s.bob, cmdutil.ExitRefused, "self-remove", "repo", "edit", "--remove-maintainer", clitest.Bob.Npub(), "--no-lead-maintainer")
		s.wantOK(t, r, s.bob, clitest.CommandStarting(t, cmds, "roster repo leave"))
	}},
	{"the lead leaving: the new lead prepares, then the lead points to them", func(t *testing.T) {
		s := newLeadScene(t)
		r, cmds := s.refusedWith(t, s.alice, cmdutil.ExitRefused, "lead-cannot-leave", "repo", "leave")
		var theirs, mine string
		for _, c := range cmds {
			if strings.Contains(c, "  # run by ") {
				theirs = c
			} else {
				mine = c
			}
		}
		if theirs == "" || mine == "" || strings.Contains(theirs, "--home") {
			t.Fatalf("want the new lead's command and the lead's own: %q", cmds)
		}
		s.fill["<npub>"] = clitest.Bob.Npub()
		s.wantOK(t, r, s.bob, theirs)
		s.wantOK(t, r, s.alice, mine)
		if got := s.change(t, s.alice, "repo", "leave"); clitest.ErrorCode(got.Out) == "lead-cannot-leave" {
			t.Fatalf("alice still cannot leave:\n%s", got.Out)
		}
	}},
	{"the legacy lead leaving: the lead made explicit first", func(t *testing.T) {
		s := newSuggestScene(t)
		r, cmds := s.refusedWith(t, s.alice, cmdutil.ExitRefused, "lead-cannot-leave", "repo", "leave")
		s.fill["<npub>"] = clitest.Alice.Npub()
		for _, c := range cmds {
			if !strings.Contains(c, "  # run by ") {
				s.wantOK(t, r, s.alice, c)
			}
		}
	}},
	{"leaving with no role: who maintains it", func(t *testing.T) {
		s := newLeadScene(t)
		erinP := s.as(t, clitest.Erin)
		r := s.change(t, erinP, "repo", "leave")
		e := clitest.DecodeOut[clitest.ErrorOut](t, r)
		if r.Code == cmdutil.ExitOK {
			t.Fatalf("a stranger left: %s", r.Out)
		}
		for _, c := range rosterCommands(e.Error.Commands) {
			s.wantFurther(t, r, erinP, c)
		}
	}},
	{"acknowledging someone with no pending transition: the pending ones", func(t *testing.T) {
		s := newLeadScene(t)
		r, cmds := s.refusedWith(t, s.alice, cmdutil.ExitRefused, "nothing-to-acknowledge", "repo", "edit", "--acknowledge-maintainer-change", clitest.Erin.Npub())
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, cmds, "roster repo --repo"))
		carolP := s.as(t, clitest.Carol)
		s.before(t, carolP, 1, "repo", "accept")
		r, cmds = s.refusedWith(t, s.alice, cmdutil.ExitRefused, "nothing-to-acknowledge", "repo", "edit", "--acknowledge-maintainer-change", clitest.Erin.Npub())
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, cmds, "roster repo edit --acknowledge-maintainer-change "+clitest.Carol.Npub()))
	}},
	{"health's repair of the maintainers tag, pasted outside a checkout", func(t *testing.T) {
		s := newSuggestScene(t)
		clitest.Publish(t, s.relay.URL(),
			clitest.Alice.Announce(t, s.id, 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Carol)),
			clitest.Bob.Announce(t, s.id, 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)))
		r := s.roster(t, s.alice, "repo", "health", "--repo", s.naddr, "--relay", s.relay.URL())
		if r.Code != cmdutil.ExitUnhealthy {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		s.wantOK(t, r, s.alice, shouldRun(t, r.Out, "you", "roster repo edit --fix-maintainers"))
		if got := s.roster(t, s.alice, "repo", "health", "--repo", s.naddr, "--relay", s.relay.URL()); got.Code != cmdutil.ExitOK {
			t.Fatalf("still unhealthy after the repair: exit %d\n%s", got.Code, got.Out)
		}
	}},
	{"health's repo repair of a republish that dropped role records", func(t *testing.T) {
		s := newSuggestScene(t)
		clitest.Publish(t, s.relay.URL(),
			clitest.Alice.Announce(t, s.id, 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
			clitest.Bob.Announce(t, s.id, 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)))
		s.mustRoster(t, s.alice, "repo", "--repo", s.naddr, "--relay", s.relay.URL()) // keeps the complete version
		clitest.Publish(t, s.relay.URL(), clitest.Alice.Announce(t, s.id, 1100, clitest.MaintainersTag(clitest.Alice, clitest.Bob), nostr.Tag{"web", "https://example.invalid/w"}))
		r := s.roster(t, s.alice, "repo", "health", "--repo", s.naddr, "--relay", s.relay.URL())
		if r.Code != cmdutil.ExitUnhealthy {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		s.wantOK(t, r, s.alice, shouldRun(t, r.Out, "you", "roster repo repair"))
		if got := s.roster(t, s.alice, "repo", "health", "--repo", s.naddr, "--relay", s.relay.URL()); got.Code != cmdutil.ExitOK {
			t.Fatalf("still unhealthy after the repair: exit %d\n%s", got.Code, got.Out)
		}
	}},
	{"repo repair with nothing to repair: repo health", func(t *testing.T) {
		s := newLeadScene(t)
		r, cmds := s.refusedWith(t, s.alice, cmdutil.ExitRefused, "nothing-to-repair", "repo", "repair")
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, cmds, "roster repo health"))
	}},
	{"a co-maintainer's third-party moderator: the lead's cover, then their follow-lead", func(t *testing.T) {
		s := newLeadScene(t)
		clitest.Publish(t, s.relay.URL(),
			clitest.Bob.Announce(t, s.id, 1500, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.Role("o", clitest.Erin, "1500"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
			clitest.Erin.Announce(t, s.id, 1550, clitest.Role("o", clitest.Erin, "1550"), clitest.MaintainersTag()))
		r := s.roster(t, s.alice, "repo", "health", "--repo", s.naddr, "--relay", s.relay.URL())
		if r.Code != cmdutil.ExitUnhealthy {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		cover := shouldRun(t, r.Out, "you", "roster repo edit --add-moderator "+clitest.Erin.Npub())
		follow := shouldRun(t, r.Out, clitest.Bob.Npub(), "roster repo follow-lead")
		if strings.Contains(follow, "--home") {
			t.Errorf("bob's command carries alice's home: %q", follow)
		}
		s.wantOK(t, r, s.alice, cover)
		s.wantOK(t, r, s.bob, follow)
		if got := s.roster(t, s.alice, "repo", "health", "--repo", s.naddr, "--relay", s.relay.URL()); got.Code != cmdutil.ExitOK {
			t.Fatalf("still unhealthy: exit %d\n%s", got.Code, got.Out)
		}
	}},
	{"a co-maintainer's third-party maintainer: the lead's add, then their follow-lead", func(t *testing.T) {
		s := newLeadScene(t)
		clitest.Publish(t, s.relay.URL(),
			clitest.Bob.Announce(t, s.id, 1500, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.Role("m", clitest.Erin, "1500"), clitest.MaintainersTag(clitest.Alice, clitest.Bob, clitest.Erin)),
			clitest.Erin.Announce(t, s.id, 1550, clitest.Role("M", clitest.Bob, "1550"), clitest.Role("m", clitest.Erin, "1550"), clitest.MaintainersTag(clitest.Bob, clitest.Erin)))
		r := s.change(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Dave.Npub())
		e := wantError(t, r, cmdutil.ExitRefused, "co-maintainer-third-party-assignment")
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster repo edit --add-maintainer "+clitest.Erin.Npub()))
		s.wantOK(t, r, s.bob, clitest.CommandStarting(t, e.Commands, "roster repo follow-lead"))
		s.wantOK(t, r, s.alice, strings.Join(clitest.ShellWords(t, "roster repo edit --add-maintainer "+clitest.Dave.Npub()+" --repo "+s.naddr+" --relay "+s.relay.URL()), " "))
	}},
	{"a change given --force where it means nothing: the same without it", func(t *testing.T) {
		s := newLeadScene(t)
		r, cmds := s.refusedWith(t, s.alice, cmdutil.ExitRefused, "force-not-available", "repo", "edit", "--remove-maintainer", clitest.Carol.Npub(), "--force")
		c := clitest.CommandStarting(t, cmds, "roster repo edit --remove-maintainer "+clitest.Carol.Npub())
		if strings.Contains(c, "--force") {
			t.Fatalf("the rerun keeps --force: %q", c)
		}
		s.wantOK(t, r, s.alice, c)
	}},
	{"removing an invitee: the other co-maintainers' follow-lead", func(t *testing.T) {
		s := newLeadScene(t)
		r := s.change(t, s.alice, "repo", "edit", "--remove-maintainer", clitest.Carol.Npub())
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		c := guidanceCommand(t, r, "roster repo follow-lead")
		if !strings.Contains(c, "  # run by ") || strings.Contains(c, "--home") {
			t.Fatalf("not bob's own command: %q", c)
		}
		s.wantOK(t, r, s.bob, c)
	}},
	{"a co-maintainer preparing to lead: the lead points to them, then follows", func(t *testing.T) {
		s := newLeadScene(t)
		r := s.change(t, s.bob, "repo", "edit", "--lead-maintainer", clitest.Bob.Npub())
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		point := guidanceCommand(t, r, "roster repo edit --lead-maintainer "+clitest.Bob.Npub())
		got := s.wantOK(t, r, s.alice, point)
		follow := guidanceCommand(t, clitest.Result{Code: got.Code, Out: got.Out, Err: got.Err}, "roster repo follow-lead")
		s.wantFurther(t, clitest.Result{Code: got.Code, Out: got.Out}, s.alice, follow)
	}},
	{"a change over an announcement dated far ahead: roster repo, and the rerun once it is deleted", func(t *testing.T) {
		s := newSuggestScene(t)
		future := clitest.Alice.Announce(t, s.id, nostr.Now().Time().Unix()+86400)
		clitest.Publish(t, s.relay.URL(), future)
		r, cmds := s.refusedWith(t, s.alice, cmdutil.ExitRefused, "base-in-the-future", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, cmds, "roster repo --repo"))
		// The message's remedy: a NIP-09 deletion of that id.
		clitest.Publish(t, s.relay.URL(), clitest.Alice.Sign(t, nostr.KindDeletion, time.Now().Add(-3*time.Hour).Unix(), nostr.Tag{"e", future.ID}))
		clitest.Publish(t, s.relay.URL(), clitest.Alice.Announce(t, s.id, 200))
		// This machine verified the deleted version: its author's deletion
		// says it is not the latest, so the rerun is no stale-relays.
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, cmds, "roster repo edit --add-maintainer "+clitest.Bob.Npub()))
	}},
	{"a change on a conflicting lead path: roster repo", func(t *testing.T) {
		s := newSuggestScene(t)
		clitest.Publish(t, s.relay.URL(),
			clitest.Alice.Announce(t, s.id, 1000, clitest.Role("M", clitest.Bob, "100"), clitest.Role("m", clitest.Alice, "100"), clitest.Projection(clitest.Alice, clitest.Bob)),
			clitest.Bob.Announce(t, s.id, 1010, clitest.Role("M", clitest.Alice, "110"), clitest.Role("m", clitest.Bob, "110"), clitest.Projection(clitest.Alice, clitest.Bob)))
		r, cmds := s.refusedWith(t, s.alice, cmdutil.ExitRefused, "lead-path-unresolved", "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--no-lead-maintainer")
		s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, cmds, "roster repo --repo"))
	}},
	{"a change interrupted after sending: roster repo, then the resume", func(t *testing.T) {
		s := newSuggestScene(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		r := clitest.Invocation{Env: s.alice.env, Dir: s.alice.dir, Ctx: ctx, Now: time.Now().Add(-2 * time.Hour), Seams: cmdutil.Seams{AfterPublish: cancel}}.
			Roster(t, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--repo", s.naddr, "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUnverified, "interrupted")
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster repo --repo"))
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster pending resume "))
	}},
	{"a change a relay lost the connection over: pending resume", func(t *testing.T) {
		s := newSuggestScene(t)
		second := devrelay.StartN(t, 1, devrelay.Options{})[0]
		clitest.Publish(t, second.URL(), clitest.Alice.Announce(t, s.id, 100))
		second.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: clitest.AliceAnnouncementOf(s.id)})
		r := s.roster(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--repo", s.naddr, "--relay", s.relay.URL(), "--relay", second.URL(), "--json")
		e := clitest.DecodeOut[clitest.ErrorOut](t, r)
		if r.Code != cmdutil.ExitUnverified {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		second.SetMisbehaviour(devrelay.Misbehaviour{})
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, e.Error.Commands, "roster pending resume "))
		if n := len(second.Stored(nostr.Filter{Kinds: []int{30617}, Authors: []string{clitest.Alice.Pk}})); n != 1 || len(clitest.JournalFiles(t, s.alice.home)) != 0 {
			t.Fatalf("the resume did not finish the write: %d announcement(s), journal %v", n, clitest.JournalFiles(t, s.alice.home))
		}
	}},
	{"a change a relay lost the connection over: pending discard", func(t *testing.T) {
		s := newSuggestScene(t)
		second := devrelay.StartN(t, 1, devrelay.Options{})[0]
		clitest.Publish(t, second.URL(), clitest.Alice.Announce(t, s.id, 100))
		second.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: clitest.AliceAnnouncementOf(s.id)})
		r := s.roster(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--repo", s.naddr, "--relay", s.relay.URL(), "--relay", second.URL(), "--json")
		e := clitest.DecodeOut[clitest.ErrorOut](t, r)
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, e.Error.Commands, "roster pending discard "))
		if files := clitest.JournalFiles(t, s.alice.home); len(files) != 0 {
			t.Fatalf("the journal still holds %v", files)
		}
	}},
	{"a change whose journal directory cannot be read: the rerun once it can, never a pending that fails alike", func(t *testing.T) {
		s := newSuggestScene(t)
		jdir := filepath.Join(s.alice.home, "journal")
		if err := os.WriteFile(jdir, []byte("not a directory"), 0o600); err != nil {
			t.Fatal(err)
		}
		r := s.change(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
		e := wantError(t, r, cmdutil.ExitFailure, "journal-unreadable")
		rerun := clitest.CommandStarting(t, e.Commands, "roster repo edit --add-maintainer")
		for _, c := range rosterCommands(e.Commands) {
			if c != rerun {
				s.wantFurther(t, r, s.alice, c)
			}
		}
		if err := os.Remove(jdir); err != nil {
			t.Fatal(err)
		}
		s.wantOK(t, r, s.alice, rerun)
	}},
	{"a change the full journal cannot take: pending, a discard, then the rerun", func(t *testing.T) {
		s := newSuggestScene(t)
		j := journal.Open(s.alice.home)
		for i := range journal.MaxEntries {
			id := fmt.Sprintf("other-%d", i)
			evt := clitest.Alice.Announce(t, id, 100)
			if err := j.Begin([]journal.Entry{{Pipeline: journal.PipelineMembership, Command: []string{"repo", "edit", "--fix-maintainers"},
				Repo: clitest.Alice.Coord(id).ATag(), Address: clitest.Alice.Coord(id).ATag(), Relays: []string{s.relay.URL()}, Event: evt}}); err != nil {
				t.Fatal(err)
			}
		}
		r := s.change(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
		e := wantError(t, r, cmdutil.ExitFailure, "journal-unwritable")
		got := s.wantOK(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster pending"))
		var listed clitest.PendingJSON
		if err := json.Unmarshal([]byte(got.Out), &listed); err != nil || len(listed.Writes) != journal.MaxEntries {
			t.Fatalf("roster pending: %v\n%s", err, got.Out)
		}
		s.wantOK(t, r, s.alice, "roster pending discard "+listed.Writes[0].ID[:12])
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster repo edit --add-maintainer"))
	}},
	{"a change with an unreadable journal entry: pending lists it, the rerun once it is gone", func(t *testing.T) {
		s := newSuggestScene(t)
		jdir := filepath.Join(s.alice.home, "journal")
		bad := filepath.Join(jdir, strings.Repeat("ab", 32)+".json")
		if err := os.MkdirAll(jdir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bad, []byte("{not json"), 0o600); err != nil {
			t.Fatal(err)
		}
		r := s.change(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
		e := clitest.DecodeOut[clitest.ErrorOut](t, r)
		if r.Code == cmdutil.ExitOK || len(e.Error.Commands) == 0 {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		got := s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, e.Error.Commands, "roster pending"))
		if !strings.Contains(got.Out+got.Err, filepath.Base(bad)) {
			t.Errorf("roster pending does not name the unreadable file:\n%s%s", got.Out, got.Err)
		}
		if err := os.Remove(bad); err != nil {
			t.Fatal(err)
		}
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, e.Error.Commands, "roster repo edit --add-maintainer"))
	}},
	{"a change superseded by a competing edit: the rerun over the winner", func(t *testing.T) {
		s := newSuggestScene(t)
		at := time.Now().Add(-2 * time.Hour)
		competing := func() {
			clitest.Publish(t, s.relay.URL(), clitest.Alice.Announce(t, s.id, at.Unix()+30, nostr.Tag{"description", "edited elsewhere"}))
		}
		r := clitest.Invocation{Env: s.alice.env, Dir: s.alice.dir, Now: at, Seams: cmdutil.Seams{AfterPublish: competing}}.
			Roster(t, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--repo", s.naddr, "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUnverified, "superseded")
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster repo edit --add-maintainer "+clitest.Bob.Npub()))
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster repo --repo"))
	}},
	{"a change given --force with no state conflict: the same without it", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.change(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force")
		e := clitest.DecodeOut[clitest.ErrorOut](t, r)
		if r.Code == cmdutil.ExitOK {
			t.Fatalf("--force was taken:\n%s", r.Out)
		}
		c := clitest.CommandStarting(t, e.Error.Commands, "roster repo edit --add-maintainer "+clitest.Bob.Npub())
		if strings.Contains(c, "--force") {
			t.Fatalf("the rerun keeps --force: %q", c)
		}
		s.wantOK(t, r, s.alice, c)
	}},
	{"an add over a conflicting state: the --force rerun from the checkout", func(t *testing.T) {
		js := clitest.ForcedAddScene(t)
		r := js.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "state-conflict")
		c := clitest.CommandStarting(t, e.Commands, "roster repo edit --add-maintainer "+clitest.Bob.Npub()+" --force")
		if got := pasteInWorld(t, js.W, r, clitest.Alice, js.Alice.Dir, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"a forced state stored and the announcement refused: the rerun and repo state", func(t *testing.T) {
		js := clitest.ForcedAddScene(t)
		js.W.Relays[0].SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(evt *nostr.Event) string {
			if evt.Kind == graph.KindAnnouncement {
				return "blocked: announcements are closed today"
			}
			return ""
		}})
		r := js.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force", "--json")
		e := wantError(t, r, cmdutil.ExitUnverified, "partly-published")
		js.W.Relays[0].SetMisbehaviour(devrelay.Misbehaviour{})
		for _, prefix := range []string{"roster repo state --repo", "roster repo edit --add-maintainer " + clitest.Bob.Npub()} {
			c := clitest.CommandStarting(t, e.Commands, prefix)
			if got := pasteInWorld(t, js.W, r, clitest.Alice, js.Alice.Dir, c); got.Code != cmdutil.ExitOK {
				t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
			}
		}
	}},
	{"an invitee whose published state differs: publish on their own coordinate, then accept", func(t *testing.T) {
		js := clitest.NewJoinScene(t)
		w := js.W
		w.Seed(clitest.Bob.Announce(t, w.Id, 200, nostr.Tag{"clone", js.Url}), clitest.Bob.State(t, w.Id, 300, js.MainB))
		w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
		co := js.Clone()
		w.Dir = co.Dir
		r := w.Run(clitest.Bob, clitest.Alice, 2000, "repo", "accept", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "state-conflict")
		publishOwn := clitest.CommandStarting(t, e.Commands, "roster repo state publish --repo nostr://")
		if got := pasteInWorld(t, w, r, clitest.Bob, co.Dir, publishOwn); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
		accept := clitest.CommandStarting(t, e.Commands, "roster repo accept")
		if got := pasteInWorld(t, w, r, clitest.Bob, co.Dir, accept); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"a handoff blocked by objects no server has: publish a served state, then the removal", func(t *testing.T) {
		js := clitest.AcceptedBob(t)
		w := js.W
		co := js.Clone()
		unpushed := co.Commit("bob's work nobody serves")
		w.Seed(clitest.Bob.State(t, w.Id, 2200, unpushed))
		r := w.Run(clitest.Alice, clitest.Alice, 3000, "repo", "edit", "--remove-maintainer", clitest.Bob.Npub(), "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "objects-unavailable")
		publishServed := clitest.CommandStarting(t, e.Commands, "roster repo state publish --force")
		if got := pasteInWorld(t, w, r, clitest.Alice, js.Alice.Dir, publishServed); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
		removal := clitest.CommandStarting(t, e.Commands, "roster repo edit --remove-maintainer "+clitest.Bob.Npub())
		if got := pasteInWorld(t, w, r, clitest.Alice, js.Alice.Dir, removal); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
	{"a change every relay refused: the rerun once they accept", func(t *testing.T) {
		s := newSuggestScene(t)
		s.relay.SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(evt *nostr.Event) string {
			if evt.Kind == graph.KindAnnouncement {
				return "blocked: announcements are closed today"
			}
			return ""
		}})
		r := s.change(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
		e := wantError(t, r, cmdutil.ExitFailure, "publish-failed")
		s.relay.SetMisbehaviour(devrelay.Misbehaviour{})
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster repo edit --add-maintainer "+clitest.Bob.Npub()))
	}},
	{"a change a relay did not read back: what each relay serves now", func(t *testing.T) {
		s := newSuggestScene(t)
		second := devrelay.StartN(t, 1, devrelay.Options{})[0]
		clitest.Publish(t, second.URL(), clitest.Alice.Announce(t, s.id, 100))
		second.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: clitest.AliceAnnouncementOf(s.id)})
		r := s.roster(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--repo", s.naddr, "--relay", s.relay.URL(), "--relay", second.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUnverified, "unverified")
		second.SetMisbehaviour(devrelay.Misbehaviour{})
		var perRelay string
		for _, c := range e.Commands {
			if strings.HasSuffix(c, "  # what "+second.URL()+" serves now") {
				perRelay = c
			}
		}
		if perRelay == "" || !strings.Contains(perRelay, "--repo "+s.naddr) {
			t.Fatalf("no read of %s alone: %q", second.URL(), e.Commands)
		}
		for _, c := range []string{clitest.CommandStarting(t, e.Commands, "roster repo --repo"), perRelay} {
			s.wantOK(t, r, s.alice, c)
		}
	}},
	{"a change another edit overtook before the recheck: the rerun", func(t *testing.T) {
		s := newSuggestScene(t)
		at := time.Now().Add(-2 * time.Hour)
		competing := func() {
			clitest.Publish(t, s.relay.URL(), clitest.Alice.Announce(t, s.id, at.Unix()-30, nostr.Tag{"description", "edited elsewhere"}))
		}
		r := clitest.Invocation{Env: s.alice.env, Dir: s.alice.dir, Now: at, Seams: cmdutil.Seams{BeforeRecheck: competing}}.
			Roster(t, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--repo", s.naddr, "--relay", s.relay.URL(), "--json")
		e := clitest.DecodeOut[clitest.ErrorOut](t, r)
		if r.Code == cmdutil.ExitOK {
			t.Fatalf("the change went through over a competing edit:\n%s", r.Out)
		}
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, e.Error.Commands, "roster repo edit --add-maintainer "+clitest.Bob.Npub()))
	}},
	{"a join that newly authorizes an old status: check-event of it", func(t *testing.T) {
		s := newSuggestScene(t)
		a := nostr.Tag{"a", "30617:" + clitest.Bob.Pk + ":" + s.id}
		issue := clitest.Erin.Sign(t, 1621, 60, a, nostr.Tag{"subject", "it breaks"})
		closed := clitest.Bob.Sign(t, 1632, 70, a, nostr.Tag{"e", issue.ID, "", "root"})
		clitest.Publish(t, s.relay.URL(),
			clitest.Bob.Announce(t, s.id, 100, clitest.Role("M", clitest.Bob, "50", "100"), clitest.Role("M", clitest.Alice, "100"), clitest.Role("m", clitest.Bob, "100"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
			issue, closed)
		r, cmds := s.refusedWith(t, s.alice, cmdutil.ExitRefused, "newly-authorized-action", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
		got := s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, cmds, "roster repo check-event "+closed.ID))
		if !strings.Contains(got.Out, closed.ID) {
			t.Fatalf("check-event does not speak of %s:\n%s", closed.ID, got.Out)
		}
	}},
	{"pending resume of a write the journal holds only part of: discard it", func(t *testing.T) {
		s := newSuggestScene(t)
		second := devrelay.StartN(t, 1, devrelay.Options{})[0]
		clitest.Publish(t, second.URL(), clitest.Alice.Announce(t, s.id, 100))
		second.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: clitest.AliceAnnouncementOf(s.id)})
		s.roster(t, s.alice, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--repo", s.naddr, "--relay", s.relay.URL(), "--relay", second.URL(), "--json")
		second.SetMisbehaviour(devrelay.Misbehaviour{})
		files := clitest.JournalFiles(t, s.alice.home)
		if len(files) != 1 {
			t.Fatalf("journal %v", files)
		}
		b, err := os.ReadFile(files[0])
		if err != nil || !strings.Contains(string(b), `"of":1`) {
			t.Fatalf("entry %v: %s", err, b)
		}
		// A write of two events whose second entry is gone.
		if err := os.WriteFile(files[0], []byte(strings.Replace(string(b), `"of":1`, `"of":2`, 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		id := strings.TrimSuffix(filepath.Base(files[0]), "-0.json")
		r := s.roster(t, s.alice, "pending", "resume", id[:12], "--json")
		e := clitest.DecodeOut[clitest.ErrorOut](t, r)
		if r.Code == cmdutil.ExitOK {
			t.Fatalf("an incomplete write was resumed:\n%s", r.Out)
		}
		s.wantOK(t, r, s.alice, clitest.CommandStarting(t, e.Error.Commands, "roster pending discard "+id[:12]))
		if left := clitest.JournalFiles(t, s.alice.home); len(left) != 0 {
			t.Fatalf("journal still holds %v", left)
		}
	}},
}

// shouldRun is the command of the human health line "<who> should run:
// <cmd>" whose command starts with prefix.
func shouldRun(t *testing.T, out, who, prefix string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		_, cmd, ok := strings.Cut(l, " should run: ")
		if ok && strings.Contains(l, who) && strings.HasPrefix(cmd, prefix) {
			return strings.TrimSpace(cmd)
		}
	}
	t.Fatalf("no line says %s should run %q:\n%s", who, prefix, out)
	return ""
}

// guidanceCommand is the command of a change's --json guidance line
// "... with: <prefix>...".
func guidanceCommand(t *testing.T, r clitest.Result, prefix string) string {
	t.Helper()
	var m struct {
		Guidance []string `json:"guidance"`
	}
	_ = json.Unmarshal([]byte(r.Out), &m)
	for _, g := range m.Guidance {
		if _, cmd, ok := strings.Cut(g, " with: "); ok && strings.HasPrefix(cmd, prefix) {
			return cmd
		}
	}
	t.Fatalf("no guidance names %q:\n%s", prefix, r.Out)
	return ""
}

// pasteInWorld pastes line as p in dir with p's key and w's roster home
// (the home w.run gives everyone, which the printed command names), and
// requires it to get further than before.
func pasteInWorld(t *testing.T, w *clitest.MutWorld, before clitest.Result, p clitest.Person, dir, line string) step {
	t.Helper()
	line, _, _ = strings.Cut(line, "  # ")
	if strings.HasPrefix(line, "roster ") && !strings.Contains(line, "&&") {
		line += " --json"
	}
	u := &shellUser{t: t, who: p, env: clitest.WithKey(w.Home, p), cwd: dir, clock: newSceneClock()}
	got := u.paste(line)
	requireFurther(t, line, before, got)
	return got
}
