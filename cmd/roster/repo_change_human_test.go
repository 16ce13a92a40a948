package main

import (
	"strings"
	"testing"
)

// Human output: the preview, what was published, and the next step; a
// refusal goes to stderr with the commands and "nothing was published".
func TestMembershipHumanOutput(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	if r.Code != exitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	for _, s := range []string{"changes to your announcement:", "materialize M " + alice.npub(), "start       m " + bob.npub(),
		"newly invited", "implicit_sole", "-> " + alice.npub() + " (explicit)", "not checked yet:", "published ",
		bob.npub() + " is invited; they have no maintainer authority until they accept with: roster repo accept"} {
		if !strings.Contains(r.Out, s) {
			t.Fatalf("stdout lacks %q:\n%s", s, r.Out)
		}
	}
	r = w.run(bob, alice, 1100, "repo", "edit", "--add-maintainer", carol.npub())
	if r.Code != exitRefused || r.Out != "" {
		t.Fatalf("exit %d, stdout %q", r.Code, r.Out)
	}
	for _, s := range []string{"only the resolved lead should add maintainers to this repository", "ask " + alice.npub() + " to run:",
		"  run: roster repo edit --add-maintainer " + carol.npub(), "nothing was published"} {
		if !strings.Contains(r.Err, s) {
			t.Fatalf("stderr lacks %q:\n%s", s, r.Err)
		}
	}
	// Never a prompt: nothing is read from stdin, and an offline write is refused.
	r = w.run(alice, alice, 1200, "repo", "edit", "--add-maintainer", carol.npub(), "--offline")
	if r.Code != exitUsage || !strings.Contains(r.Err, "--offline cannot be used for a membership change") {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
}
