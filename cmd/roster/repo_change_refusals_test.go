package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
)

// Rule (errors name the next command): both governance choices at once is
// a usage error (exit 2) whose commands are the same change with each
// choice alone; removing somebody you do not list names `roster repo` to
// see who lists whom. Nothing is published either way.
func TestWriteRefusalsNameTheNextCommand(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	sel := w.Selectors(alice)

	m := w.refused(alice, alice, 1000, cmdutil.ExitUsage, "usage", "repo", "edit", "--add-maintainer", bob.npub(),
		"--lead-maintainer", alice.npub(), "--no-lead-maintainer")
	cmds := toStrings(m["error"].(map[string]any)["commands"])
	add := "roster repo edit --add-maintainer " + bob.npub()
	want := []string{add + " --lead-maintainer " + alice.npub() + sel + "  # a lead-shaped repository",
		add + " --no-lead-maintainer" + sel + "  # the exceptional leadless model"}
	if strings.Join(cmds, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands\n%s\nwant\n%s", strings.Join(cmds, "\n"), strings.Join(want, "\n"))
	}

	m = w.refused(alice, alice, 1000, cmdutil.ExitRefused, "not-listed", "repo", "edit", "--remove-maintainer", carol.npub())
	cmds = toStrings(m["error"].(map[string]any)["commands"])
	if len(cmds) != 1 || !strings.HasPrefix(cmds[0], "roster repo"+sel+"  #") {
		t.Errorf("not-listed commands %q, want roster repo%s with a comment", cmds, sel)
	}
}

// Rule (exit 4: not enough evidence, nothing published): a
// membership change that cannot hear every relay asked exits 4, stores
// nothing, and its first command is the change itself with the same
// --repo and --relay flags (not only `roster repo` reads), never --offline,
// which a membership change refuses, nor a longer --timeout for a relay
// that refused the connection.
func TestUnreachableRelayMutationSuggestsRetryingTheChange(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	dead := "ws://127.0.0.1:1"
	m := w.refused(alice, alice, 1000, cmdutil.ExitIncomplete, "incomplete", "repo", "edit", "--add-maintainer", bob.npub(), "--relay", dead)
	cmds := toStrings(m["error"].(map[string]any)["commands"])
	want := "roster repo edit --add-maintainer " + bob.npub() + " --repo " + alice.naddr(w.id) + " " + strings.Join(relayArgs(w.relays), " ") +
		" --relay " + dead + " --home " + w.home["ROSTER_HOME"] + "  #"
	if len(cmds) == 0 || !strings.HasPrefix(cmds[0], want) {
		t.Fatalf("first command %q, want the change retried: %q...", cmds, want)
	}
	for _, c := range cmds {
		if strings.Contains(c, "--offline") {
			t.Errorf("a membership change cannot run --offline, yet suggested: %q", c)
		}
	}
}

// Rule (exit 6: published but not verified): a relay that accepts
// the replacement announcement but never stores it makes the change exit 6,
// naming the relay; the good relay keeps what was published.
func TestDroppingRelayMutationIsUnverified(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	dropping := devrelay.StartN(t, 1, devrelay.Options{Authorities: []devrelay.Authority{swallowAnnouncements{}}})[0]
	w.seed(alice.announce(t, w.id, 100))
	publish(t, dropping.URL(), alice.announce(t, w.id, 100))
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--relay", dropping.URL())
	if r.Code != cmdutil.ExitUnverified || !strings.Contains(r.Err, dropping.URL()+" accepted it but did not return it on read-back") {
		t.Fatalf("exit %d, want 6 naming %s\n%s%s", r.Code, dropping.URL(), r.Out, r.Err)
	}
	// The advice is accurate: no "rerun, it is idempotent" (a rerun is
	// refused as already done); it names the relay that lost it.
	if strings.Contains(r.Err, "idempotent") || !strings.Contains(r.Err, "roster repo --repo "+alice.naddr(w.id)+" --home "+w.home["ROSTER_HOME"]+" --relay "+dropping.URL()+"  #") {
		t.Errorf("unverified advice:\n%s", r.Err)
	}
	if r2 := w.run(alice, alice, 1100, "repo", "edit", "--add-maintainer", bob.npub(), "--relay", dropping.URL()); r2.Code != cmdutil.ExitRefused {
		t.Errorf("rerun: exit %d, want 3 (already invited)\n%s", r2.Code, r2.Err)
	}
	if got := w.latest(alice); !strings.Contains(got, `["m","bob","1000"]`) {
		t.Fatalf("the good relay lacks the published invitation:\n%s", got)
	}
}

// Rule (errors name the next command): a membership change on a coordinate
// with no relay hint and no --relay is exit 2 whose first command is the
// change itself with --relay, not only a `roster repo` read.
func TestNoRelayMutationSuggestsTheChangeWithRelay(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	naddr := alice.naddr(w.id)
	r := invocation{Env: withKey(w.home, bob), Dir: w.dir}.roster(t, "repo", "accept", "--repo", naddr, "--json")
	var m struct {
		Error report.Error `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil || r.Code != cmdutil.ExitUsage || m.Error.Code != "no-relays" {
		t.Fatalf("exit %d, err %v\n%s%s", r.Code, err, r.Out, r.Err)
	}
	want := "roster repo accept --repo " + naddr + " --relay wss://<relay>  #"
	if len(m.Error.Commands) == 0 || !strings.HasPrefix(m.Error.Commands[0], want) {
		t.Fatalf("commands %q, want first %q...", m.Error.Commands, want)
	}
	for _, c := range m.Error.Commands {
		if strings.Contains(c, "--offline") {
			t.Errorf("a membership change cannot run --offline, yet suggested: %q", c)
		}
	}
}

// maintainers.md "Governance": in an explicitly leadless repository every
// add needs `--lead-maintainer <you>` or `--no-lead-maintainer`. The
// refusal names both as commands (it named only the leadless one), and the
// suggested self-lead command previews cleanly as printed.
func TestLeadlessGovernanceChoiceSuggestsBothChoices(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--no-lead-maintainer")
	w.ok(bob, alice, 2000, "repo", "accept")
	m := w.refused(alice, alice, 3000, cmdutil.ExitRefused, "governance-choice-required", "repo", "edit", "--add-maintainer", carol.npub())
	cmds := toStrings(m["error"].(map[string]any)["commands"])
	self := "roster repo edit --add-maintainer " + carol.npub() + " --lead-maintainer " + alice.npub() + w.Selectors(alice)
	if len(cmds) != 2 || !strings.HasPrefix(cmds[0], self+"  #") || !strings.Contains(cmds[1], " --no-lead-maintainer") {
		t.Fatalf("commands %q, want the self-lead and the leadless choice", cmds)
	}
	cmd, _, _ := strings.Cut(cmds[0], "  #")
	m = runSuggested(t, w, alice, 3100, cmd+" --dry-run")
	if m["lead_maintainer"] != alice.npub() {
		t.Fatalf("self-lead choice previews lead %v, want %s", m["lead_maintainer"], alice.npub())
	}
}

// Rule (errors name the right next command): a maintainer who adds
// themselves is not told to accept an invitation they do not have.
func TestSelfAddByAMaintainerDoesNotSuggestAccept(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	m := w.refused(alice, alice, 1000, cmdutil.ExitRefused, "self-add", "repo", "edit", "--add-maintainer", alice.npub())
	e := m["error"].(map[string]any)
	cmds := toStrings(e["commands"])
	if strings.Contains(e["message"].(string), "accept") || len(cmds) != 1 || !strings.HasPrefix(cmds[0], "roster repo"+w.Selectors(alice)+"  #") {
		t.Fatalf("message %q, commands %q", e["message"], cmds)
	}
}

// Rule (errors name a command that works): in a leadless repository a
// maintainer adding themselves is refused as a self-add, not asked for a
// governance choice whose suggested commands would only be refused again.
func TestSelfAddInALeadlessRepositoryIsASelfAddNotAGovernanceChoice(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--no-lead-maintainer")
	w.ok(bob, alice, 2000, "repo", "accept")
	w.refused(alice, alice, 3000, cmdutil.ExitRefused, "self-add", "repo", "edit", "--add-maintainer", alice.npub())
}

// Rule (errors name the next command): acknowledging a transition that is
// not pending names the ones that are (here Bob's acceptance), so the user
// who typed the wrong npub sees the right command.
func TestAcknowledgeNothingPendingNamesWhatIsPending(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	w.ok(bob, alice, 2000, "repo", "accept")
	m := w.refused(alice, alice, 3000, cmdutil.ExitRefused, "nothing-to-acknowledge", "repo", "edit", "--acknowledge-maintainer-change", carol.npub())
	cmds := toStrings(m["error"].(map[string]any)["commands"])
	want := "roster repo edit --acknowledge-maintainer-change " + bob.npub() + w.Selectors(alice) + "  # the start of " + bob.npub()
	if len(cmds) != 1 || cmds[0] != want {
		t.Fatalf("commands %q, want [%q]", cmds, want)
	}
	w.ok(alice, alice, 3100, "repo", "edit", "--acknowledge-maintainer-change", bob.npub())
	m = w.refused(alice, alice, 3200, cmdutil.ExitRefused, "nothing-to-acknowledge", "repo", "edit", "--acknowledge-maintainer-change", bob.npub())
	if cmds := toStrings(m["error"].(map[string]any)["commands"]); len(cmds) != 1 || !strings.HasPrefix(cmds[0], "roster repo"+w.Selectors(alice)+"  #") {
		t.Fatalf("nothing pending: commands %q", cmds)
	}
}

// Rule (errors name a command that works, and its runner): somebody who
// is not invited is told who invites them and with which command — in a
// lead-shaped repository the lead's plain add, in a leadless one any
// maintainer's add with --no-lead-maintainer (a plain add would be refused
// for want of a governance choice).
func TestNotInvitedAcceptNamesWhoInvitesAndHow(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		flags []string
		want  string
	}{
		{"lead-shaped", nil, "roster repo edit --add-maintainer " + dave.npub() + "{sel}  # run by the lead " + alice.npub()},
		{"leadless", []string{"--no-lead-maintainer"}, "roster repo edit --add-maintainer " + dave.npub() + " --no-lead-maintainer{sel}  # run by a maintainer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newMutWorld(t, 1)
			w.seed(alice.announce(t, w.id, 100))
			w.ok(alice, alice, 1000, append([]string{"repo", "edit", "--add-maintainer", bob.npub()}, c.flags...)...)
			m := w.refused(dave, alice, 2000, cmdutil.ExitRefused, "not-invited", "repo", "accept")
			cmds := toStrings(m["error"].(map[string]any)["commands"])
			want := strings.Replace(c.want, "{sel}", w.SelectorsForOthers(alice), 1)
			if len(cmds) != 1 || cmds[0] != want {
				t.Fatalf("commands %q, want [%q]", cmds, want)
			}
			// The suggested command works for the person it names.
			cmd, _, _ := strings.Cut(cmds[0], "  #")
			runSuggested(t, w, alice, 2100, cmd+" --dry-run")
		})
	}
}

// Rule (--dry-run previews only): accept, leave, follow-lead and an
// acknowledgement with --dry-run exit 0 with dry_run true and a preview,
// and no relay stores anything new.
func TestDryRunOfEveryMembershipCommandPublishesNothing(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	check := func(p, sel person, now int64, args ...string) {
		t.Helper()
		before := w.storedCount()
		m := w.ok(p, sel, now, append(args, "--dry-run")...)
		if m["dry_run"] != true || m["preview"] == nil || len(toStrings(m["published"])) != 0 {
			t.Errorf("%v: dry_run %v, preview %v, published %v", args, m["dry_run"], m["preview"] != nil, m["published"])
		}
		if after := w.storedCount(); after != before {
			t.Errorf("%v --dry-run stored %d new event(s)", args, after-before)
		}
	}
	check(bob, alice, 2000, "repo", "accept")
	w.ok(bob, alice, 2000, "repo", "accept")
	check(alice, alice, 2100, "repo", "edit", "--acknowledge-maintainer-change", bob.npub())
	w.ok(alice, alice, 2100, "repo", "edit", "--acknowledge-maintainer-change", bob.npub())
	check(bob, alice, 2200, "repo", "leave")
	w.ok(alice, alice, 2300, "repo", "edit", "--add-maintainer", carol.npub())
	w.ok(carol, alice, 2400, "repo", "accept")
	check(bob, alice, 2500, "repo", "follow-lead")
}

// Rule (fail closed where a safety input cannot be read): a change compares
// the relays' answer with what this machine verified before, in the local
// cache, so a write with a cache that cannot be opened stops with the
// cache's own code and way out and publishes nothing; a plain read goes on
// without the cache, with a warning.
func TestAWriteWithAnUnreadableCacheFailsClosed(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	if err := os.WriteFile(filepath.Join(w.home["ROSTER_HOME"], "cache.db"), []byte(strings.Repeat("not a bolt file ", 400)), 0o600); err != nil {
		t.Fatal(err)
	}
	m := w.refused(alice, alice, 1000, cmdutil.ExitFailure, "cache-corrupt", "repo", "edit", "--add-maintainer", bob.npub())
	if cmds := toStrings(m["error"].(map[string]any)["commands"]); len(cmds) == 0 || !strings.HasPrefix(cmds[0], "roster cache clear --home ") {
		t.Fatalf("commands %q, want roster cache clear --home first", cmds)
	}
	if r := w.run(alice, alice, 1000, "repo"); r.Code != cmdutil.ExitOK || !strings.Contains(r.Err, "reading without the local cache") {
		t.Fatalf("a read with an unreadable cache: exit %d\n%s", r.Code, r.Err)
	}
}
