package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (errors and advice name the next command, copy-pasteable, for the
// person who runs it): outside a checkout, the commands a membership change
// suggests carry the --repo and --relay the user needed; one for another
// person carries only those (never the runner's --home) and names its
// runner. Alice invites Bob by --repo; the guidance's `roster repo accept`
// is what Bob runs, verbatim, from a directory that is no checkout, in his
// own roster home; his guidance's acknowledgement is what Alice runs,
// verbatim. A refusal's commands carry them too.
func TestMutationSuggestedCommandsRunAsPrinted(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	m := w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	sel := w.Selectors(alice)
	if got := m["command"]; got != "roster repo edit --add-maintainer "+bob.npub()+sel {
		t.Errorf("command %q lacks the selectors %q", got, sel)
	}
	forOthers := strings.TrimSuffix(sel, " --home "+w.home["ROSTER_HOME"])
	accept := suggested(t, m, "roster repo accept")
	if want := forOthers + "  # run by " + bob.npub(); !strings.HasSuffix(accept, want) {
		t.Fatalf("suggested accept %q does not end %q", accept, want)
	}

	m = runSuggestedIn(t, w, testEnv(t), bob, 2000, accept)
	ack := suggested(t, m, "roster repo edit --acknowledge-maintainer-change "+bob.npub())
	if want := forOthers + "  # run by " + alice.npub(); !strings.HasSuffix(ack, want) {
		t.Fatalf("suggested acknowledgement %q does not end %q", ack, want)
	}
	runSuggested(t, w, alice, 3000, ack)
	if got := w.latest(alice); !strings.Contains(got, `["m","bob","2000"]`) {
		t.Fatalf("alice's acknowledgement did not move bob's start to his acceptance:\n%s", got)
	}

	// Bob is not the lead: the refusal names Alice's command with the selectors.
	m = w.refused(bob, alice, 4000, cmdutil.ExitRefused, "only-lead-manages-roster", "repo", "edit", "--add-maintainer", carol.npub())
	for _, c := range toStrings(m["error"].(map[string]any)["commands"]) {
		if strings.HasPrefix(c, "roster ") && !strings.Contains(c, forOthers) {
			t.Errorf("refusal command %q lacks %q", c, forOthers)
		}
	}
}

// suggested returns the command of the guidance line "... with: <prefix>...".
func suggested(t *testing.T, m map[string]any, prefix string) string {
	t.Helper()
	for _, g := range toStrings(m["guidance"]) {
		if _, cmd, ok := strings.Cut(g, " with: "); ok && strings.HasPrefix(cmd, prefix) {
			return cmd
		}
	}
	t.Fatalf("no guidance names %q: %q", prefix, m["guidance"])
	return ""
}

// runSuggested runs a printed command word by word as p, in w's directory
// (not a checkout) and w's roster home, and requires success.
func runSuggested(t *testing.T, w *mutWorld, p person, now int64, command string) map[string]any {
	t.Helper()
	return runSuggestedIn(t, w, w.home, p, now, command)
}

// runSuggestedIn is runSuggested in the roster home of env.
func runSuggestedIn(t *testing.T, w *mutWorld, env map[string]string, p person, now int64, command string) map[string]any {
	t.Helper()
	command, _, _ = strings.Cut(command, "  # ")
	args := append(strings.Fields(strings.TrimPrefix(command, "roster ")), "--json")
	r := invocation{Env: withKey(env, p), Dir: w.dir, Now: time.Unix(now, 0)}.roster(t, args...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("%q as %s: exit %d\n%s%s", command, p.name, r.Code, r.Out, r.Err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.Out)
	}
	return m
}

// Rule (next commands are copy-pasteable): follow-lead outside a checkout
// cannot switch anything, so it says how to select the lead from now on as
// a whole command (not a bare "--repo ..."), which runs as printed.
func TestFollowLeadOutsideACheckoutSuggestsAWholeCommand(t *testing.T) {
	t.Parallel()
	w := bobTookTheLead(t)
	m := w.ok(alice, alice, 5000, "repo", "follow-lead")
	cmd := suggested(t, m, "roster repo --repo ")
	if !strings.Contains(cmd, "nostr://"+bob.npub()+"/"+w.id) {
		t.Fatalf("suggested %q does not select bob's coordinate", cmd)
	}
	for _, g := range toStrings(m["guidance"]) {
		if strings.Contains(g, "this checkout") {
			t.Errorf("outside a checkout the guidance speaks of a checkout: %q", g)
		}
	}
	got := runSuggested(t, w, alice, 5100, cmd)
	if got["selected_maintainer"] != bob.npub() {
		t.Fatalf("the suggested command selects %v, want %s", got["selected_maintainer"], bob.npub())
	}
}
