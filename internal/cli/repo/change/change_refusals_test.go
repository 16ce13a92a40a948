package change_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

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
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	sel := w.Selectors(clitest.Alice)

	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitUsage, "usage", "repo", "edit", "--add-maintainer", clitest.Bob.Npub(),
		"--lead-maintainer", clitest.Alice.Npub(), "--no-lead-maintainer")
	cmds := clitest.ToStrings(m["error"].(map[string]any)["commands"])
	add := "roster repo edit --add-maintainer " + clitest.Bob.Npub()
	want := []string{add + " --lead-maintainer " + clitest.Alice.Npub() + sel + "  # a lead-shaped repository",
		add + " --no-lead-maintainer" + sel + "  # the exceptional leadless model"}
	if strings.Join(cmds, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands\n%s\nwant\n%s", strings.Join(cmds, "\n"), strings.Join(want, "\n"))
	}

	m = w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "not-listed", "repo", "edit", "--remove-maintainer", clitest.Carol.Npub())
	cmds = clitest.ToStrings(m["error"].(map[string]any)["commands"])
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
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	dead := "ws://127.0.0.1:1"
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitIncomplete, "incomplete", "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--relay", dead)
	cmds := clitest.ToStrings(m["error"].(map[string]any)["commands"])
	want := "roster repo edit --add-maintainer " + clitest.Bob.Npub() + " --repo " + clitest.Alice.Naddr(w.Id) + " " + strings.Join(clitest.RelayArgs(w.Relays), " ") +
		" --relay " + dead + " --home " + w.Home["ROSTER_HOME"] + "  #"
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
	w := clitest.NewMutWorld(t, 1)
	dropping := devrelay.StartN(t, 1, devrelay.Options{Authorities: []devrelay.Authority{swallowAnnouncements{}}})[0]
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	clitest.Publish(t, dropping.URL(), clitest.Alice.Announce(t, w.Id, 100))
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--relay", dropping.URL())
	if r.Code != cmdutil.ExitUnverified || !strings.Contains(r.Err, dropping.URL()+" accepted it but did not return it on read-back") {
		t.Fatalf("exit %d, want 6 naming %s\n%s%s", r.Code, dropping.URL(), r.Out, r.Err)
	}
	// The advice is accurate: no "rerun, it is idempotent" (a rerun is
	// refused as already done); it names the relay that lost it.
	if strings.Contains(r.Err, "idempotent") || !strings.Contains(r.Err, "roster repo --repo "+clitest.Alice.Naddr(w.Id)+" --home "+w.Home["ROSTER_HOME"]+" --relay "+dropping.URL()+"  #") {
		t.Errorf("unverified advice:\n%s", r.Err)
	}
	if r2 := w.Run(clitest.Alice, clitest.Alice, 1100, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--relay", dropping.URL()); r2.Code != cmdutil.ExitRefused {
		t.Errorf("rerun: exit %d, want 3 (already invited)\n%s", r2.Code, r2.Err)
	}
	if got := w.Latest(clitest.Alice); !strings.Contains(got, `["m","bob","1000"]`) {
		t.Fatalf("the good relay lacks the published invitation:\n%s", got)
	}
}

// Rule (errors name the next command): a membership change on a coordinate
// with no relay hint and no --relay is exit 2 whose first command is the
// change itself with --relay, not only a `roster repo` read.
func TestNoRelayMutationSuggestsTheChangeWithRelay(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	naddr := clitest.Alice.Naddr(w.Id)
	r := clitest.Invocation{Env: clitest.WithKey(w.Home, clitest.Bob), Dir: w.Dir}.Roster(t, "repo", "accept", "--repo", naddr, "--json")
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
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--no-lead-maintainer")
	w.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	m := w.Refused(clitest.Alice, clitest.Alice, 3000, cmdutil.ExitRefused, "governance-choice-required", "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	cmds := clitest.ToStrings(m["error"].(map[string]any)["commands"])
	self := "roster repo edit --add-maintainer " + clitest.Carol.Npub() + " --lead-maintainer " + clitest.Alice.Npub() + w.Selectors(clitest.Alice)
	if len(cmds) != 2 || !strings.HasPrefix(cmds[0], self+"  #") || !strings.Contains(cmds[1], " --no-lead-maintainer") {
		t.Fatalf("commands %q, want the self-lead and the leadless choice", cmds)
	}
	cmd, _, _ := strings.Cut(cmds[0], "  #")
	m = clitest.RunSuggested(t, w, clitest.Alice, 3100, cmd+" --dry-run")
	if m["lead_maintainer"] != clitest.Alice.Npub() {
		t.Fatalf("self-lead choice previews lead %v, want %s", m["lead_maintainer"], clitest.Alice.Npub())
	}
}

// Rule (errors name the right next command): a maintainer who adds
// themselves is not told to accept an invitation they do not have.
func TestSelfAddByAMaintainerDoesNotSuggestAccept(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "self-add", "repo", "edit", "--add-maintainer", clitest.Alice.Npub())
	e := m["error"].(map[string]any)
	cmds := clitest.ToStrings(e["commands"])
	if strings.Contains(e["message"].(string), "accept") || len(cmds) != 1 || !strings.HasPrefix(cmds[0], "roster repo"+w.Selectors(clitest.Alice)+"  #") {
		t.Fatalf("message %q, commands %q", e["message"], cmds)
	}
}

// Rule (errors name a command that works): in a leadless repository a
// maintainer adding themselves is refused as a self-add, not asked for a
// governance choice whose suggested commands would only be refused again.
func TestSelfAddInALeadlessRepositoryIsASelfAddNotAGovernanceChoice(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--no-lead-maintainer")
	w.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	w.Refused(clitest.Alice, clitest.Alice, 3000, cmdutil.ExitRefused, "self-add", "repo", "edit", "--add-maintainer", clitest.Alice.Npub())
}

// Rule (errors name the next command): acknowledging a transition that is
// not pending names the ones that are (here Bob's acceptance), so the user
// who typed the wrong npub sees the right command.
func TestAcknowledgeNothingPendingNamesWhatIsPending(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	w.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	m := w.Refused(clitest.Alice, clitest.Alice, 3000, cmdutil.ExitRefused, "nothing-to-acknowledge", "repo", "edit", "--acknowledge-maintainer-change", clitest.Carol.Npub())
	cmds := clitest.ToStrings(m["error"].(map[string]any)["commands"])
	want := "roster repo edit --acknowledge-maintainer-change " + clitest.Bob.Npub() + w.Selectors(clitest.Alice) + "  # the start of " + clitest.Bob.Npub()
	if len(cmds) != 1 || cmds[0] != want {
		t.Fatalf("commands %q, want [%q]", cmds, want)
	}
	w.Ok(clitest.Alice, clitest.Alice, 3100, "repo", "edit", "--acknowledge-maintainer-change", clitest.Bob.Npub())
	m = w.Refused(clitest.Alice, clitest.Alice, 3200, cmdutil.ExitRefused, "nothing-to-acknowledge", "repo", "edit", "--acknowledge-maintainer-change", clitest.Bob.Npub())
	if cmds := clitest.ToStrings(m["error"].(map[string]any)["commands"]); len(cmds) != 1 || !strings.HasPrefix(cmds[0], "roster repo"+w.Selectors(clitest.Alice)+"  #") {
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
		{"lead-shaped", nil, "roster repo edit --add-maintainer " + clitest.Dave.Npub() + "{sel}  # run by the lead " + clitest.Alice.Npub()},
		{"leadless", []string{"--no-lead-maintainer"}, "roster repo edit --add-maintainer " + clitest.Dave.Npub() + " --no-lead-maintainer{sel}  # run by a maintainer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := clitest.NewMutWorld(t, 1)
			w.Seed(clitest.Alice.Announce(t, w.Id, 100))
			w.Ok(clitest.Alice, clitest.Alice, 1000, append([]string{"repo", "edit", "--add-maintainer", clitest.Bob.Npub()}, c.flags...)...)
			m := w.Refused(clitest.Dave, clitest.Alice, 2000, cmdutil.ExitRefused, "not-invited", "repo", "accept")
			cmds := clitest.ToStrings(m["error"].(map[string]any)["commands"])
			want := strings.Replace(c.want, "{sel}", w.SelectorsForOthers(clitest.Alice), 1)
			if len(cmds) != 1 || cmds[0] != want {
				t.Fatalf("commands %q, want [%q]", cmds, want)
			}
			// The suggested command works for the person it names.
			cmd, _, _ := strings.Cut(cmds[0], "  #")
			clitest.RunSuggested(t, w, clitest.Alice, 2100, cmd+" --dry-run")
		})
	}
}

// Rule (--dry-run previews only): accept, leave, follow-lead and an
// acknowledgement with --dry-run exit 0 with dry_run true and a preview,
// and no relay stores anything new.
func TestDryRunOfEveryMembershipCommandPublishesNothing(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	check := func(p, sel clitest.Person, now int64, args ...string) {
		t.Helper()
		before := w.StoredCount()
		m := w.Ok(p, sel, now, append(args, "--dry-run")...)
		if m["dry_run"] != true || m["preview"] == nil || len(clitest.ToStrings(m["published"])) != 0 {
			t.Errorf("%v: dry_run %v, preview %v, published %v", args, m["dry_run"], m["preview"] != nil, m["published"])
		}
		if after := w.StoredCount(); after != before {
			t.Errorf("%v --dry-run stored %d new event(s)", args, after-before)
		}
	}
	check(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	w.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	check(clitest.Alice, clitest.Alice, 2100, "repo", "edit", "--acknowledge-maintainer-change", clitest.Bob.Npub())
	w.Ok(clitest.Alice, clitest.Alice, 2100, "repo", "edit", "--acknowledge-maintainer-change", clitest.Bob.Npub())
	check(clitest.Bob, clitest.Alice, 2200, "repo", "leave")
	w.Ok(clitest.Alice, clitest.Alice, 2300, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	w.Ok(clitest.Carol, clitest.Alice, 2400, "repo", "accept")
	check(clitest.Bob, clitest.Alice, 2500, "repo", "follow-lead")
}

// Rule (fail closed where a safety input cannot be read): a change compares
// the relays' answer with what this machine verified before, in the local
// cache, so a write with a cache that cannot be opened stops with the
// cache's own code and way out and publishes nothing; a plain read goes on
// without the cache, with a warning.
func TestAWriteWithAnUnreadableCacheFailsClosed(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	if err := os.WriteFile(filepath.Join(w.Home["ROSTER_HOME"], "cache.db"), []byte(strings.Repeat("not a bolt file ", 400)), 0o600); err != nil {
		t.Fatal(err)
	}
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitFailure, "cache-corrupt", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	if cmds := clitest.ToStrings(m["error"].(map[string]any)["commands"]); len(cmds) == 0 || !strings.HasPrefix(cmds[0], "roster cache clear --home ") {
		t.Fatalf("commands %q, want roster cache clear --home first", cmds)
	}
	if r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo"); r.Code != cmdutil.ExitOK || !strings.Contains(r.Err, "reading without the local cache") {
		t.Fatalf("a read with an unreadable cache: exit %d\n%s", r.Code, r.Err)
	}
}
