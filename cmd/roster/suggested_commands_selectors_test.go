package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

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
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	m := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	sel := w.Selectors(clitest.Alice)
	if got := m["command"]; got != "roster repo edit --add-maintainer "+clitest.Bob.Npub()+sel {
		t.Errorf("command %q lacks the selectors %q", got, sel)
	}
	forOthers := strings.TrimSuffix(sel, " --home "+w.Home["ROSTER_HOME"])
	accept := clitest.Suggested(t, m, "roster repo accept")
	if want := forOthers + "  # run by " + clitest.Bob.Npub(); !strings.HasSuffix(accept, want) {
		t.Fatalf("suggested accept %q does not end %q", accept, want)
	}

	m = clitest.RunSuggestedIn(t, w, clitest.TestEnv(t), clitest.Bob, 2000, accept)
	ack := clitest.Suggested(t, m, "roster repo edit --acknowledge-maintainer-change "+clitest.Bob.Npub())
	if want := forOthers + "  # run by " + clitest.Alice.Npub(); !strings.HasSuffix(ack, want) {
		t.Fatalf("suggested acknowledgement %q does not end %q", ack, want)
	}
	clitest.RunSuggested(t, w, clitest.Alice, 3000, ack)
	if got := w.Latest(clitest.Alice); !strings.Contains(got, `["m","bob","2000"]`) {
		t.Fatalf("alice's acknowledgement did not move bob's start to his acceptance:\n%s", got)
	}

	// Bob is not the lead: the refusal names Alice's command with the selectors.
	m = w.Refused(clitest.Bob, clitest.Alice, 4000, cmdutil.ExitRefused, "only-lead-manages-roster", "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	for _, c := range clitest.ToStrings(m["error"].(map[string]any)["commands"]) {
		if strings.HasPrefix(c, "roster ") && !strings.Contains(c, forOthers) {
			t.Errorf("refusal command %q lacks %q", c, forOthers)
		}
	}
}

// Rule (next commands are copy-pasteable): follow-lead outside a checkout
// cannot switch anything, so it says how to select the lead from now on as
// a whole command (not a bare "--repo ..."), which runs as printed.
func TestFollowLeadOutsideACheckoutSuggestsAWholeCommand(t *testing.T) {
	t.Parallel()
	w := clitest.BobTookTheLead(t)
	m := w.Ok(clitest.Alice, clitest.Alice, 5000, "repo", "follow-lead")
	cmd := clitest.Suggested(t, m, "roster repo --repo ")
	if !strings.Contains(cmd, "nostr://"+clitest.Bob.Npub()+"/"+w.Id) {
		t.Fatalf("suggested %q does not select bob's coordinate", cmd)
	}
	for _, g := range clitest.ToStrings(m["guidance"]) {
		if strings.Contains(g, "this checkout") {
			t.Errorf("outside a checkout the guidance speaks of a checkout: %q", g)
		}
	}
	got := clitest.RunSuggested(t, w, clitest.Alice, 5100, cmd)
	if got["selected_maintainer"] != clitest.Bob.Npub() {
		t.Fatalf("the suggested command selects %v, want %s", got["selected_maintainer"], clitest.Bob.Npub())
	}
}
