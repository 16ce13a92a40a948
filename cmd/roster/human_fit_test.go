package main

import (
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/graph"
)

// checkFits fails when a line is wider than cols, unless it is one
// unbreakable token (an indented npub, URL or id) or a suggested command,
// which stays whole to paste.
func checkFits(t *testing.T, out string, cols int) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if len([]rune(line)) > cols && len(strings.Fields(line)) > 1 && !strings.HasPrefix(strings.TrimSpace(line), "roster ") {
			t.Fatalf("a %d-column line at %d columns: %q\n%s", len([]rune(line)), cols, line, out)
		}
	}
}

// checkHumanRule is the rule for a read's human output: on an 80-column
// terminal the npubs are short and no row runs past the edge; --full gives
// them whole; a pipe gets them whole, unwrapped, exactly as a terminal wide
// enough with --full would; --json is the same on a terminal and in a pipe.
func checkHumanRule(t *testing.T, env clitest.Invocation, npub string, args ...string) string {
	t.Helper()
	tty := clitest.FitRun(t, env, true, "80", args...)
	checkFits(t, tty, 80)
	if npub != "" {
		checkShortNpubs(t, tty, npub, env, args...)
	}
	piped := clitest.FitRun(t, env, false, "80", args...)
	if strings.Contains(piped, "…") || (npub != "" && !strings.Contains(piped, npub)) {
		t.Fatalf("%v piped: want whole npubs:\n%s", args, piped)
	}
	// Names and "(you)" are the same in a pipe: nothing differs.
	if wide := clitest.FitRun(t, env, true, "100000", append(args, "--full")...); wide != piped {
		t.Fatalf("%v piped differs from an unwrapped terminal with --full:\n%s\n---\n%s", args, piped, wide)
	}
	if j1, j2 := clitest.FitRun(t, env, true, "80", append(args, "--json")...), clitest.FitRun(t, env, false, "80", append(args, "--json")...); j1 != j2 {
		t.Fatalf("%v --json differs on a terminal:\n%s\n---\n%s", args, j1, j2)
	}
	return tty
}

// checkShortNpubs: npub is short on the terminal outside suggested
// commands, and whole with --full.
func checkShortNpubs(t *testing.T, tty, npub string, env clitest.Invocation, args ...string) {
	t.Helper()
	if !strings.Contains(tty, clitest.ShortNpubForTest(npub)) {
		t.Fatalf("%v on a terminal: want %s short:\n%s", args, npub, tty)
	}
	for _, line := range strings.Split(tty, "\n") {
		// A suggested command keeps the whole npub, to paste.
		if !strings.HasPrefix(strings.TrimSpace(line), "roster ") && strings.Contains(line, npub) {
			t.Fatalf("%v on a terminal: %s in full outside a command: %q", args, npub, line)
		}
	}
	if full := clitest.FitRun(t, env, true, "80", append(args, "--full")...); !strings.Contains(strings.Join(strings.Fields(full), " "), npub) || strings.Contains(full, "…") {
		t.Fatalf("%v --full: want whole npubs:\n%s", args, full)
	}
}

func TestHumanReadsFitTheTerminalWithShortNpubs(t *testing.T) {
	t.Parallel()
	t.Run("project and group reads", func(t *testing.T) {
		t.Parallel()
		w := clitest.NewPCWorld(t)
		w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
		w.Group(clitest.PcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "Home"},
			nostr.Tag{"about", "the home channel of a project whose description is long enough to need a second line"})
		w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
		w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome},
			nostr.Tag{"description", "a demo project with a description that runs well past the edge of an eighty-column terminal"})
		env := clitest.Invocation{Env: map[string]string{"ROSTER_SECRET_KEY": clitest.PcOwnerSK, "ROSTER_HOME": t.TempDir()}}
		relay := []string{"--relay", w.Relay.URL(), "--timeout", "5s"}
		checkHumanRule(t, env, graph.Npub(w.Coord.Owner), append([]string{"project", "show", w.Coord.String()}, relay...)...)
		checkHumanRule(t, env, graph.Npub(clitest.PubOf(t, clitest.PcAdminSK)), append([]string{"group", "show", clitest.PcHome}, relay...)...)
		checkHumanRule(t, env, graph.Npub(clitest.PubOf(t, clitest.PcAdminSK)), append([]string{"group", "members", clitest.PcHome}, relay...)...)
		checkHumanRule(t, env, graph.Npub(w.Coord.Owner), append([]string{"group", "show", clitest.PcHome, "--me"}, relay...)...)
		checkHumanRule(t, env, "", append([]string{"project", "list"}, relay...)...)
		checkHumanRule(t, env, "", append([]string{"group", "list"}, relay...)...)
	})
	t.Run("workspace show and list", func(t *testing.T) {
		t.Parallel()
		w := clitest.ImportedWorld(t)
		env := clitest.Invocation{Env: map[string]string{"ROSTER_SECRET_KEY": clitest.SwOwnerSK, "ROSTER_HOME": w.Homes[clitest.SwOwnerSK]}}
		relay := []string{"--relay", w.Relay.URL(), "--timeout", "5s"}
		checkHumanRule(t, env, w.OwnerNpub(), append([]string{"workspace", "show"}, relay...)...)
		list := checkHumanRule(t, env, w.OwnerNpub(), append([]string{"workspace", "list"}, relay...)...)
		show := "roster workspace show --owner " + w.OwnerNpub() + " --relay " + w.Relay.URL()
		if !strings.Contains(list, "\n    "+show+"\n") {
			t.Fatalf("the suggested show command is not whole on its line:\n%s", list)
		}
	})
	t.Run("repo state and health", func(t *testing.T) {
		t.Parallel()
		rl := devrelay.StartN(t, 1, devrelay.Options{})[0]
		clitest.Publish(t, rl.URL(), clitest.LeadShaped(t, "proj")...)
		env := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}
		relay := []string{"--repo", clitest.Alice.Naddr("proj"), "--relay", rl.URL(), "--timeout", "5s"}
		checkHumanRule(t, env, clitest.Bob.Npub(), append([]string{"repo", "state"}, relay...)...)
		checkHumanRule(t, env, "", append([]string{"repo", "health"}, relay...)...)
	})
	t.Run("repo check-event", func(t *testing.T) {
		t.Parallel()
		w, issue := clitest.CheckEventWorld(t)
		status := clitest.Bob.Sign(t, 1631, 2500, nostr.Tag{"a", "30617:" + clitest.Alice.Pk + ":" + w.Id}, nostr.Tag{"e", issue.ID, "", "root"})
		w.Seed(status)
		inv := clitest.Invocation{Env: w.Home, Dir: w.Dir, Now: time.Unix(10_000, 0)}
		args := append([]string{"repo", "check-event", status.ID, "--timeout", "5s", "--home", w.Home["ROSTER_HOME"]}, clitest.RelayArgs(w.Relays)...)
		checkHumanRule(t, inv, clitest.Bob.Npub(), args...)
	})
	t.Run("whoami", func(t *testing.T) {
		t.Parallel()
		// The npub is the answer: whole even on a terminal, on its own line.
		inv := clitest.Invocation{Env: clitest.WithKey(clitest.TestEnv(t), clitest.Alice)}
		tty := clitest.FitRun(t, inv, true, "80", "whoami")
		checkFits(t, tty, 80)
		if !strings.HasPrefix(tty, clitest.Alice.Npub()+"\n") {
			t.Fatalf("whoami on a terminal:\n%s", tty)
		}
		if piped, wide := clitest.FitRun(t, inv, false, "80", "whoami"), clitest.FitRun(t, inv, true, "100000", "whoami"); piped != wide {
			t.Fatalf("piped differs from an unwrapped terminal:\n%s\n---\n%s", piped, wide)
		}
	})
}

// Rule (names for every person shown): project, workspace and group reads
// name people from their verified kind 0 profiles, with "(you)" for the
// signer, on a terminal (npubs short) and in a pipe (npubs whole).
func TestProjectAndGroupReadsNamePeople(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome})
	for sk, name := range map[string]string{clitest.PcOwnerSK: "olive", clitest.PcAdminSK: "adam"} {
		evt := &nostr.Event{Kind: 0, CreatedAt: nostr.Now() - 5, Tags: nostr.Tags{}, Content: `{"name":"` + name + `"}`}
		if err := evt.Sign(sk); err != nil {
			t.Fatal(err)
		}
		clitest.Publish(t, w.Relay.URL(), evt)
	}
	env := clitest.Invocation{Env: map[string]string{"ROSTER_SECRET_KEY": clitest.PcOwnerSK, "ROSTER_HOME": t.TempDir()}}
	relay := []string{"--relay", w.Relay.URL(), "--timeout", "5s"}
	owner, admin := graph.Npub(w.Coord.Owner), graph.Npub(clitest.PubOf(t, clitest.PcAdminSK))
	show := clitest.FitRun(t, env, true, "120", append([]string{"project", "show", w.Coord.String()}, relay...)...)
	if !strings.Contains(show, "olive ("+clitest.ShortNpubForTest(owner)+") (you)") {
		t.Fatalf("project show on a terminal does not name the owner:\n%s", show)
	}
	group := clitest.FitRun(t, env, true, "120", append([]string{"group", "show", clitest.PcHome}, relay...)...)
	if !strings.Contains(group, "adam ("+clitest.ShortNpubForTest(admin)+")") {
		t.Fatalf("group show on a terminal does not name the admin:\n%s", group)
	}
	if piped := clitest.FitRun(t, env, false, "120", append([]string{"project", "show", w.Coord.String()}, relay...)...); !strings.Contains(piped, "olive ("+owner+") (you)") {
		t.Fatalf("project show piped:\n%s", piped)
	}
}
