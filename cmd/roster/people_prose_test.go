package main

import (
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
)

// proseWorld: Alice leads and invites Bob, both with profiles; her
// maintainers compatibility tag leaves Bob out (a health finding naming
// him).
func proseWorld(t *testing.T, tag ...person) *mutWorld {
	t.Helper()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100, role("M", alice), role("m", bob, "90"), maintainersTag(tag...)),
		alice.profile(t, 50, map[string]any{"name": "alice"}),
		bob.profile(t, 50, map[string]any{"name": "bob"}))
	return w
}

// runAs is w.run with stdout (and stderr) a terminal when tty.
func (w *mutWorld) runAs(tty bool, p person, now int64, args ...string) result {
	w.t.Helper()
	full := append([]string{"--repo", p.naddr(w.id), "--timeout", "5s", "--home", w.home["ROSTER_HOME"]}, relayArgs(w.relays)...)
	env := withKey(w.home, p)
	env["NO_COLOR"], env["COLUMNS"] = "1", "200"
	return invocation{Env: env, Dir: w.dir, Now: time.Unix(now, 0), Seams: w.seams, OutTTY: tty, ErrTTY: tty}.roster(w.t, append(full, args...)...)
}

// Rule (people are named in human output, commands paste as they are): on
// a terminal the prose of a refusal and of a health finding names each
// known person "name (npub1abc…wxyz)", "(you)" for the signer, while the
// commands in it keep the full npub; --full keeps the npub whole, a pipe
// gets the text as graph and preflight wrote it, and JSON never changes.
func TestProseNamesPeopleOnATerminalOnly(t *testing.T) {
	t.Parallel()
	w, consistent := proseWorld(t, alice), proseWorld(t, alice, bob)
	short := shortNpubForTest(bob.npub())

	r := consistent.runAs(true, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	if r.Code != cmdutil.ExitRefused {
		t.Fatalf("exit %d: %s%s", r.Code, r.Out, r.Err)
	}
	if !strings.Contains(r.Err, "you already list bob ("+short+")") {
		t.Fatalf("the refusal does not name bob:\n%s", r.Err)
	}
	for _, l := range strings.Split(r.Err, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "run:") && strings.Contains(l, "…") {
			t.Fatalf("a suggested command was shortened: %q", l)
		}
	}

	r = w.runAs(true, alice, 1000, "repo", "health")
	// Rows wrap to the terminal between words: compare the words.
	if flat := strings.Join(strings.Fields(r.Out), " "); !strings.Contains(flat, "missing active roles: bob ("+short+")") ||
		!strings.Contains(flat, "announcement of alice ("+shortNpubForTest(alice.npub())+") (you)") {
		t.Fatalf("the health finding does not name the people:\n%s%s", r.Out, r.Err)
	}
	r = w.runAs(true, alice, 1000, "repo")
	if !strings.Contains(strings.Join(strings.Fields(r.Out), " "), "missing active roles: bob ("+short+")") {
		t.Fatalf("roster repo's health list does not name bob:\n%s", r.Out)
	}
	if !strings.Contains(r.Err, "missing active roles: bob ("+short+")") {
		t.Fatalf("the advisory does not name bob:\n%s", r.Err)
	}

	// --full on a terminal: names with whole npubs.
	r = w.runAs(true, alice, 1000, "repo", "health", "--full")
	if !strings.Contains(strings.Join(strings.Fields(r.Out), " "), "missing active roles: bob ("+bob.npub()+")") || strings.Contains(r.Out, "…") {
		t.Fatalf("--full:\n%s", r.Out)
	}
	// A pipe: graph's text as written.
	r = w.runAs(false, alice, 1000, "repo", "health")
	if !strings.Contains(r.Out, "missing active roles: "+bob.npub()) || strings.Contains(r.Out, "bob (") {
		t.Fatalf("a pipe got names:\n%s", r.Out)
	}
	r = consistent.runAs(false, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	if !strings.Contains(r.Err, "you already list "+bob.npub()+";") {
		t.Fatalf("a pipe got a changed refusal:\n%s", r.Err)
	}
	// JSON: the same with and without a terminal.
	tty := w.runAs(true, alice, 1000, "repo", "health", "--json")
	pipe := w.runAs(false, alice, 1000, "repo", "health", "--json")
	if tty.Out != pipe.Out || strings.Contains(tty.Out, "bob (") {
		t.Fatalf("JSON changed on a terminal:\n%s\n%s", tty.Out, pipe.Out)
	}
}

// Rule (a command inside prose is pasted as it is): an npub after
// "roster <group>" keeps its full form up to the end of its clause, and
// coordinates and URLs are never rewritten.
func TestProseKeepsCommandsAndCoordinates(t *testing.T) {
	t.Parallel()
	pt := render.NewPeopleText(report.Names{bob.npub(): report.Identity{Name: "bob"}}, alice.npub(), true)
	pt.NameProse = true
	b, a := bob.npub(), alice.npub()
	cases := map[string]string{
		"ask " + b + " to run: roster repo edit --add-maintainer " + b + "; then repair": "ask bob (" + shortNpubForTest(b) + ") to run: roster repo edit --add-maintainer " + b + "; then repair",
		"uses " + b + "/my-repo and nostr://" + b + "/wss/x":                             "uses " + b + "/my-repo and nostr://" + b + "/wss/x",
		a + " lists you": shortNpubForTest(a) + " (you) lists you",
		"publish it with `roster repo edit --remove-maintainer " + b + "` now, " + b: "publish it with `roster repo edit --remove-maintainer " + b + "` now, bob (" + shortNpubForTest(b) + ")",
	}
	for in, want := range cases {
		if got := pt.Prose(in); got != want {
			t.Errorf("Prose(%q)\n got %q\nwant %q", in, got, want)
		}
	}
	pt.NameProse = false
	if in := "ask " + b; pt.Prose(in) != in {
		t.Errorf("off a terminal the prose changed")
	}
}

// Rule: the guidance after a change names people on a terminal; its JSON
// form keeps the npub.
func TestGuidanceNamesPeopleOnATerminal(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100), bob.profile(t, 50, map[string]any{"name": "bob"}))
	r := w.runAs(true, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--dry-run")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "next:\n  bob ("+shortNpubForTest(bob.npub())+") is invited;") {
		t.Fatalf("exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
	r = w.runAs(true, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--dry-run", "--json")
	if !strings.Contains(r.Out, `"`+bob.npub()+` is invited;`) || strings.Contains(r.Out, "bob (") {
		t.Fatalf("JSON guidance changed:\n%s", r.Out)
	}
}
