package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Human output: the preview, what was published, and the next step; a
// refusal goes to stderr with the commands and "nothing was published".
func TestMembershipHumanOutput(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	// One sentence per change and per consequence, in words, dates not epochs.
	for _, s := range []string{"your announcement:", "  - records you explicitly as the lead (you were the implicit sole maintainer)",
		"  - lists " + bob.npub() + " as a maintainer from 1970-01-01 00:16:40 UTC",
		"  - " + bob.npub() + " becomes an invited maintainer", "(implicit: the sole maintainer)", "to " + alice.npub() + " (you) (explicit)", "not checked yet:", "published ",
		bob.npub() + " is invited; they have no maintainer authority until they accept with: roster repo accept"} {
		if !strings.Contains(r.Out, s) {
			t.Fatalf("stdout lacks %q:\n%s", s, r.Out)
		}
	}
	if strings.Contains(r.Out, `["m"`) || strings.Contains(r.Out, "materialize") {
		t.Fatalf("tag-level detail without --verbose:\n%s", r.Out)
	}
	// --verbose adds the tag each change writes.
	r = w.run(alice, alice, 1050, "repo", "edit", "--add-maintainer", carol.npub(), "--dry-run", "--verbose")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, `tag ["m", "`+carol.pk+`", "1050"] (start m)`) {
		t.Fatalf("exit %d, --verbose lacks the tag:\n%s%s", r.Code, r.Out, r.Err)
	}
	r = w.run(bob, alice, 1100, "repo", "edit", "--add-maintainer", carol.npub())
	if r.Code != cmdutil.ExitRefused || r.Out != "" {
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
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "--offline cannot be used for a membership change") {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
}
