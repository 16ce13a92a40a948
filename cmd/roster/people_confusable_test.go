package main

import (
	"strings"
	"testing"

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
	publish(t, rl.URL(), leadShaped(t, "proj")...)
	publish(t, rl.URL(),
		alice.profile(t, 500, map[string]any{"name": "alice"}),
		bob.profile(t, 500, map[string]any{"name": "alice\u200b"}),
		carol.profile(t, 500, map[string]any{"name": "\u0430lice"}),
		dave.profile(t, 500, map[string]any{"name": "\u200b" + alice.npub()}))
	env := testEnv(t)
	env["NO_COLOR"] = "1"
	env["COLUMNS"] = "200"
	inv := invocation{Env: env, OutTTY: true}
	r := inv.roster(t, "repo", "--repo", alice.naddr("proj"), "--relay", rl.URL(), "--timeout", "3s")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	flat := strings.Join(strings.Fields(r.Out), " ")
	for _, want := range []string{
		"alice (" + alice.npub() + ")",
		`alice\u200b (` + bob.npub() + ")",
		"\u0430lice (" + carol.npub() + ")",
		`\u200b` + alice.npub() + " (" + dave.npub() + ")",
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
		alice.npub(): report.Identity{Name: "alice"},
		bob.npub():   report.Identity{Name: "Ольга"},
		carol.npub(): report.Identity{Name: "c\u0430rol"},
	}
	pt := render.NewPeopleText(names, "", true)
	if got := pt.Of(alice.npub()); got != "alice ("+shortNpubForTest(alice.npub())+")" {
		t.Errorf("alice: %q", got)
	}
	if got := pt.Of(bob.npub()); got != "Ольга ("+shortNpubForTest(bob.npub())+")" {
		t.Errorf("Ольга: %q", got)
	}
	if got := pt.Of(carol.npub()); got != "c\u0430rol ("+carol.npub()+")" {
		t.Errorf("mixed-script carol: %q", got)
	}
}
