package main

import (
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// fitRun runs args as inv on a fake terminal of cols columns (ttyOut) or
// in a pipe, and fails unless roster exits 0.
func fitRun(t *testing.T, inv invocation, ttyOut bool, cols string, args ...string) string {
	t.Helper()
	e := map[string]string{"NO_COLOR": "1", "COLUMNS": cols}
	for k, v := range inv.Env {
		e[k] = v
	}
	inv.Env, inv.OutTTY = e, ttyOut
	r := inv.roster(t, args...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("roster %v (tty %v): exit %d\n%s%s", args, ttyOut, r.Code, r.Out, r.Err)
	}
	return r.Out
}

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
func checkHumanRule(t *testing.T, env invocation, npub string, args ...string) string {
	t.Helper()
	tty := fitRun(t, env, true, "80", args...)
	checkFits(t, tty, 80)
	if npub != "" {
		checkShortNpubs(t, tty, npub, env, args...)
	}
	piped := fitRun(t, env, false, "80", args...)
	if strings.Contains(piped, "…") || (npub != "" && !strings.Contains(piped, npub)) {
		t.Fatalf("%v piped: want whole npubs:\n%s", args, piped)
	}
	// A terminal adds "(you)" after the signer; nothing else differs.
	if wide := fitRun(t, env, true, "100000", append(args, "--full")...); strings.ReplaceAll(wide, " (you)", "") != piped {
		t.Fatalf("%v piped differs from an unwrapped terminal with --full:\n%s\n---\n%s", args, piped, wide)
	}
	if j1, j2 := fitRun(t, env, true, "80", append(args, "--json")...), fitRun(t, env, false, "80", append(args, "--json")...); j1 != j2 {
		t.Fatalf("%v --json differs on a terminal:\n%s\n---\n%s", args, j1, j2)
	}
	return tty
}

// checkShortNpubs: npub is short on the terminal outside suggested
// commands, and whole with --full.
func checkShortNpubs(t *testing.T, tty, npub string, env invocation, args ...string) {
	t.Helper()
	if !strings.Contains(tty, shortNpubForTest(npub)) {
		t.Fatalf("%v on a terminal: want %s short:\n%s", args, npub, tty)
	}
	for _, line := range strings.Split(tty, "\n") {
		// A suggested command keeps the whole npub, to paste.
		if !strings.HasPrefix(strings.TrimSpace(line), "roster ") && strings.Contains(line, npub) {
			t.Fatalf("%v on a terminal: %s in full outside a command: %q", args, npub, line)
		}
	}
	if full := fitRun(t, env, true, "80", append(args, "--full")...); !strings.Contains(strings.Join(strings.Fields(full), " "), npub) || strings.Contains(full, "…") {
		t.Fatalf("%v --full: want whole npubs:\n%s", args, full)
	}
}

func TestHumanReadsFitTheTerminalWithShortNpubs(t *testing.T) {
	t.Parallel()
	t.Run("project and group reads", func(t *testing.T) {
		t.Parallel()
		w := newPCWorld(t)
		w.group(pcOwnerSK, grouprelay.KindCreateGroup)
		w.group(pcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "Home"},
			nostr.Tag{"about", "the home channel of a project whose description is long enough to need a second line"})
		w.group(pcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", pubOf(t, pcAdminSK), "admin"})
		w.identity(nostr.Now()-10, nostr.Tag{"buzz-channel", pcHome},
			nostr.Tag{"description", "a demo project with a description that runs well past the edge of an eighty-column terminal"})
		env := invocation{Env: map[string]string{"ROSTER_SECRET_KEY": pcOwnerSK, "ROSTER_HOME": t.TempDir()}}
		relay := []string{"--relay", w.relay.URL(), "--timeout", "5s"}
		checkHumanRule(t, env, graph.Npub(w.coord.Owner), append([]string{"project", "show", w.coord.String()}, relay...)...)
		checkHumanRule(t, env, graph.Npub(pubOf(t, pcAdminSK)), append([]string{"group", "show", pcHome}, relay...)...)
		checkHumanRule(t, env, graph.Npub(pubOf(t, pcAdminSK)), append([]string{"group", "members", pcHome}, relay...)...)
		checkHumanRule(t, env, graph.Npub(w.coord.Owner), append([]string{"group", "show", pcHome, "--me"}, relay...)...)
		checkHumanRule(t, env, "", append([]string{"project", "list"}, relay...)...)
		checkHumanRule(t, env, "", append([]string{"group", "list"}, relay...)...)
	})
	t.Run("workspace show and list", func(t *testing.T) {
		t.Parallel()
		w := importedWorld(t)
		env := invocation{Env: map[string]string{"ROSTER_SECRET_KEY": swOwnerSK, "ROSTER_HOME": w.homes[swOwnerSK]}}
		relay := []string{"--relay", w.relay.URL(), "--timeout", "5s"}
		checkHumanRule(t, env, w.ownerNpub(), append([]string{"workspace", "show"}, relay...)...)
		list := checkHumanRule(t, env, w.ownerNpub(), append([]string{"workspace", "list"}, relay...)...)
		show := "roster workspace show --owner " + w.ownerNpub() + " --relay " + w.relay.URL()
		if !strings.Contains(list, "\n    "+show+"\n") {
			t.Fatalf("the suggested show command is not whole on its line:\n%s", list)
		}
	})
	t.Run("repo state and health", func(t *testing.T) {
		t.Parallel()
		rl := devrelay.StartN(t, 1, devrelay.Options{})[0]
		publish(t, rl.URL(), leadShaped(t, "proj")...)
		env := invocation{Env: testEnv(t), Dir: t.TempDir()}
		relay := []string{"--repo", alice.naddr("proj"), "--relay", rl.URL(), "--timeout", "5s"}
		checkHumanRule(t, env, bob.npub(), append([]string{"repo", "state"}, relay...)...)
		checkHumanRule(t, env, "", append([]string{"repo", "health"}, relay...)...)
	})
	t.Run("repo check-event", func(t *testing.T) {
		t.Parallel()
		w, issue := checkEventWorld(t)
		status := bob.sign(t, 1631, 2500, nostr.Tag{"a", "30617:" + alice.pk + ":" + w.id}, nostr.Tag{"e", issue.ID, "", "root"})
		w.seed(status)
		inv := invocation{Env: w.home, Dir: w.dir, Now: time.Unix(10_000, 0)}
		args := append([]string{"repo", "check-event", status.ID, "--timeout", "5s", "--home", w.home["ROSTER_HOME"]}, relayArgs(w.relays)...)
		checkHumanRule(t, inv, bob.npub(), args...)
	})
	t.Run("whoami", func(t *testing.T) {
		t.Parallel()
		// The npub is the answer: whole even on a terminal, on its own line.
		inv := invocation{Env: withKey(testEnv(t), alice)}
		tty := fitRun(t, inv, true, "80", "whoami")
		checkFits(t, tty, 80)
		if !strings.HasPrefix(tty, alice.npub()+"\n") {
			t.Fatalf("whoami on a terminal:\n%s", tty)
		}
		if piped, wide := fitRun(t, inv, false, "80", "whoami"), fitRun(t, inv, true, "100000", "whoami"); piped != wide {
			t.Fatalf("piped differs from an unwrapped terminal:\n%s\n---\n%s", piped, wide)
		}
	})
}

// Rule (names for every person shown): on a terminal, project, workspace
// and group reads name people from their verified kind 0 profiles, with
// "(you)" for the signer; a pipe keeps the npubs alone.
func TestProjectAndGroupReadsNamePeopleOnATerminal(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	w.group(pcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", pubOf(t, pcAdminSK), "admin"})
	w.identity(nostr.Now()-10, nostr.Tag{"buzz-channel", pcHome})
	for sk, name := range map[string]string{pcOwnerSK: "olive", pcAdminSK: "adam"} {
		evt := &nostr.Event{Kind: 0, CreatedAt: nostr.Now() - 5, Tags: nostr.Tags{}, Content: `{"name":"` + name + `"}`}
		if err := evt.Sign(sk); err != nil {
			t.Fatal(err)
		}
		publish(t, w.relay.URL(), evt)
	}
	env := invocation{Env: map[string]string{"ROSTER_SECRET_KEY": pcOwnerSK, "ROSTER_HOME": t.TempDir()}}
	relay := []string{"--relay", w.relay.URL(), "--timeout", "5s"}
	owner, admin := graph.Npub(w.coord.Owner), graph.Npub(pubOf(t, pcAdminSK))
	show := fitRun(t, env, true, "120", append([]string{"project", "show", w.coord.String()}, relay...)...)
	if !strings.Contains(show, "olive ("+shortNpubForTest(owner)+") (you)") {
		t.Fatalf("project show on a terminal does not name the owner:\n%s", show)
	}
	group := fitRun(t, env, true, "120", append([]string{"group", "show", pcHome}, relay...)...)
	if !strings.Contains(group, "adam ("+shortNpubForTest(admin)+")") {
		t.Fatalf("group show on a terminal does not name the admin:\n%s", group)
	}
	if piped := fitRun(t, env, false, "120", append([]string{"project", "show", w.coord.String()}, relay...)...); strings.Contains(piped, "olive") || !strings.Contains(piped, owner) {
		t.Fatalf("project show piped:\n%s", piped)
	}
}
