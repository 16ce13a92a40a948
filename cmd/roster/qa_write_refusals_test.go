package main

import (
	"strings"
	"testing"
)

// Rule (errors name the next command): both governance choices at once is
// a usage error (exit 2) whose commands are the same change with each
// choice alone; removing somebody you do not list names `roster repo` to
// see who lists whom. Nothing is published either way.
func TestWriteRefusalsNameTheNextCommand(t *testing.T) {
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	sel := w.selectors(alice)

	m := w.refused(alice, alice, 1000, exitUsage, "usage", "repo", "edit", "--add-maintainer", bob.npub(),
		"--lead-maintainer", alice.npub(), "--no-lead-maintainer")
	cmds := toStrings(m["error"].(map[string]any)["commands"])
	add := "roster repo edit --add-maintainer " + bob.npub()
	want := []string{add + " --lead-maintainer " + alice.npub() + sel + "  # a lead-shaped repository",
		add + " --no-lead-maintainer" + sel + "  # the exceptional leadless model"}
	if strings.Join(cmds, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands\n%s\nwant\n%s", strings.Join(cmds, "\n"), strings.Join(want, "\n"))
	}

	m = w.refused(alice, alice, 1000, exitRefused, "not-listed", "repo", "edit", "--remove-maintainer", carol.npub())
	cmds = toStrings(m["error"].(map[string]any)["commands"])
	if len(cmds) != 1 || !strings.HasPrefix(cmds[0], "roster repo"+sel+"   #") {
		t.Errorf("not-listed commands %q, want roster repo%s with a comment", cmds, sel)
	}
}
