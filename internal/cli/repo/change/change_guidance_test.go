package change_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (errors and advice name the next command, each once for each person
// who runs it): the --json "guidance" of a membership preview names `roster
// repo follow-lead` once for Carol and once for Bob (whose command it is,
// so it says so), like the human "next:" section, instead of once per
// transition. Carol accepts her invitation in the demo repository: her
// history is pending bob's start and dave's end, and bob must follow her
// acceptance too.
func TestMutationJSONGuidanceNamesEachCommandOnce(t *testing.T) {
	t.Parallel()
	r := clitest.CarolPreviewsAcceptance(t, "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	var m struct {
		Guidance []string `json:"guidance"`
	}
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.Out)
	}
	all := strings.Join(m.Guidance, "\n")
	if n := strings.Count(all, "roster repo follow-lead"); n != 2 {
		t.Fatalf("roster repo follow-lead named %d times in the JSON guidance, want once for carol and once for bob:\n%s", n, all)
	}
	if n := strings.Count(all, "  # run by "+clitest.DemoNpub(t, "bob")); n != 1 {
		t.Fatalf("bob's follow-lead is not said to be his:\n%s", all)
	}
	for _, name := range []string{"bob", "dave"} {
		if npub := clitest.DemoNpub(t, name); !strings.Contains(all, npub) {
			t.Errorf("%s (%s) is not named in:\n%s", name, npub, all)
		}
	}
	for i, g := range m.Guidance {
		for _, prev := range m.Guidance[:i] {
			if g == prev {
				t.Errorf("guidance repeats %q", g)
			}
		}
	}
}

// Rule (guidance is accurate): a command's parts concern different people —
// Carol's own history and Bob's, which only Bob can record — so the human
// "next:" section gives Bob's its own line, run by him, and does not say
// one run covers them.
func TestSharedGuidanceCommandDoesNotClaimOneRunCoversEveryone(t *testing.T) {
	t.Parallel()
	next := clitest.NextSection(t, clitest.CarolPreviewsAcceptance(t))
	if strings.Contains(next, "run once") {
		t.Fatalf("next: section:\n%s", next)
	}
	bobs := false
	for _, l := range strings.Split(next, "\n") {
		if strings.Contains(l, "roster repo follow-lead") && strings.Contains(l, "# run by bob (") {
			bobs = true
			if strings.Contains(l, "record the start") {
				t.Errorf("bob's line claims to record carol's history: %s", l)
			}
		}
	}
	if !bobs {
		t.Fatalf("no follow-lead line run by bob in the next: section:\n%s", next)
	}
}

// Rule (nothing repeated): after Alice hands the lead to Bob, the "next:"
// section tells her to run `roster repo follow-lead`; stderr does not
// repeat it as an advisory.
func TestHandoverAdvisoryDoesNotRepeatTheNextCommand(t *testing.T) {
	t.Parallel()
	w := clitest.TwoMaintainers(t)
	w.Ok(clitest.Bob, clitest.Bob, 3000, "repo", "edit", "--lead-maintainer", clitest.Bob.Npub())
	r := w.Run(clitest.Alice, clitest.Alice, 4000, "repo", "edit", "--lead-maintainer", clitest.Bob.Npub())
	if next := clitest.NextSection(t, r); !strings.Contains(next, "roster repo follow-lead") {
		t.Fatalf("next: section does not name roster repo follow-lead:\n%s", next)
	}
	if strings.Contains(r.Err, "roster repo follow-lead") {
		t.Fatalf("stderr repeats the follow-lead advice:\n%s", r.Err)
	}
}

// handedOver: Alice led, Bob accepted and prepared, Alice pointed to Bob.
func handedOver(t *testing.T) *clitest.MutWorld {
	w := clitest.BobTookTheLead(t)
	return w
}

// Rule (output says what happened): follow-lead outside a checkout switches
// no checkout, so its human output does not say "this checkout now selects".
func TestFollowLeadOutsideACheckoutDoesNotClaimACheckoutSwitched(t *testing.T) {
	t.Parallel()
	w := handedOver(t)
	r := w.Run(clitest.Alice, clitest.Alice, 5000, "repo", "follow-lead")
	if r.Code != cmdutil.ExitOK || strings.Contains(r.Out, "this checkout") || !strings.Contains(r.Out, "roster repo --repo nostr://"+clitest.Bob.Npub()+"/"+w.Id) {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}

// Rule (output says what is true): a follow-lead with nothing to change,
// run outside a checkout, does not speak of "this checkout".
func TestFollowLeadNothingToChangeOutsideACheckout(t *testing.T) {
	t.Parallel()
	w := handedOver(t)
	w.Ok(clitest.Alice, clitest.Alice, 5000, "repo", "follow-lead")
	r := w.Run(clitest.Alice, clitest.Bob, 5100, "repo", "follow-lead")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "nothing to change") || strings.Contains(r.Out+r.Err, "this checkout") {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}

// Rule (--json guidance is a list of self-contained lines): preparing as
// lead names the current lead and the command they run on one line, not a
// line ending in "with:" followed by an indented command.
func TestPrepareAsLeadGuidanceIsOneLine(t *testing.T) {
	t.Parallel()
	w := clitest.TwoMaintainers(t)
	m := w.Ok(clitest.Bob, clitest.Bob, 3000, "repo", "edit", "--lead-maintainer", clitest.Bob.Npub())
	for _, g := range clitest.ToStrings(m["guidance"]) {
		if strings.HasSuffix(g, "with:") || strings.HasPrefix(g, " ") {
			t.Errorf("guidance line is not self-contained: %q", g)
		}
	}
	cmd := clitest.Suggested(t, m, "roster repo edit --lead-maintainer "+clitest.Bob.Npub())
	for _, g := range clitest.ToStrings(m["guidance"]) {
		if strings.HasSuffix(g, cmd) && !strings.Contains(g, "the current lead "+clitest.Alice.Npub()) {
			t.Errorf("the line does not name the current lead %s: %q", clitest.Alice.Npub(), g)
		}
	}
	clitest.RunSuggested(t, w, clitest.Alice, 4000, cmd)
}
