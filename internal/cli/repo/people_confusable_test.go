package repo_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
)

// Rule (a name is a label, never an identity; names a reader cannot tell
// apart are the same name): Bob's "alice\u200b" (a zero-width space after
// it) and Carol's "аlice" (a Cyrillic а) read as Alice's "alice", and Dave
// names himself a zero-width space and Alice's whole npub. On a terminal
// each of them is shown with the full npub, the invisible character
// escaped, so nobody passes for Alice or for her key.
func TestConfusableNamesAreShownWithFullNpubs(t *testing.T) {
	t.Parallel()
	rl := devrelay.StartN(t, 1, devrelay.Options{})[0]
	clitest.Publish(t, rl.URL(), clitest.LeadShaped(t, "proj")...)
	clitest.Publish(t, rl.URL(),
		clitest.Alice.Profile(t, 500, map[string]any{"name": "alice"}),
		clitest.Bob.Profile(t, 500, map[string]any{"name": "alice\u200b"}),
		clitest.Carol.Profile(t, 500, map[string]any{"name": "\u0430lice"}),
		clitest.Dave.Profile(t, 500, map[string]any{"name": "\u200b" + clitest.Alice.Npub()}))
	env := clitest.TestEnv(t)
	env["NO_COLOR"] = "1"
	env["COLUMNS"] = "200"
	inv := clitest.Invocation{Env: env, OutTTY: true}
	r := inv.Roster(t, "repo", "--repo", clitest.Alice.Naddr("proj"), "--relay", rl.URL(), "--timeout", "3s")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	flat := strings.Join(strings.Fields(r.Out), " ")
	for _, want := range []string{
		"alice (" + clitest.Alice.Npub() + ")",
		`alice\u200b (` + clitest.Bob.Npub() + ")",
		"\u0430lice (" + clitest.Carol.Npub() + ")",
		`\u200b` + clitest.Alice.Npub() + " (" + clitest.Dave.Npub() + ")",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("want %q in:\n%s", want, r.Out)
		}
	}
	if strings.Contains(r.Out, "\u200b") {
		t.Errorf("a zero-width space reached the terminal:\n%q", r.Out)
	}
}

// Rule (only names that can deceive cost the short npub): one "alice" and
// one "Ольга" (a name in one script) keep the short form on a terminal; an
// "аlice" beside nobody else named alice still gets the full npub, because
// Latin mixed with Cyrillic is there only to pass for someone.
func TestOnlyDeceptiveOrSharedNamesGetTheFullNpub(t *testing.T) {
	t.Parallel()
	names := report.Names{
		clitest.Alice.Npub(): report.Identity{Name: "alice"},
		clitest.Bob.Npub():   report.Identity{Name: "Ольга"},
		clitest.Carol.Npub(): report.Identity{Name: "c\u0430rol"},
	}
	pt := render.NewPeopleText(names, "", true)
	if got := pt.Of(clitest.Alice.Npub()); got != "alice ("+clitest.ShortNpubForTest(clitest.Alice.Npub())+")" {
		t.Errorf("alice: %q", got)
	}
	if got := pt.Of(clitest.Bob.Npub()); got != "Ольга ("+clitest.ShortNpubForTest(clitest.Bob.Npub())+")" {
		t.Errorf("Ольга: %q", got)
	}
	if got := pt.Of(clitest.Carol.Npub()); got != "c\u0430rol ("+clitest.Carol.Npub()+")" {
		t.Errorf("mixed-script carol: %q", got)
	}
}
