package change_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Human output: the consequence, one line of evidence, what was published,
// and the next step; --verbose adds the announcement's records and the full
// evidence; a refusal goes to stderr with the commands and "nothing was
// published".
func TestMembershipHumanOutput(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	// One sentence per consequence, in words; one line of evidence; the
	// published event labelled; no empty "not checked" label.
	for _, s := range []string{"  - " + clitest.Bob.Npub() + " becomes an invited maintainer", "(implicit: the sole maintainer)", "to " + clitest.Alice.Npub() + " (you) (explicit)",
		"checked: 1 relay, repository state", "— nothing changed since the preview", "published: announcement ",
		"send " + clitest.Bob.Npub() + " the repository and the command to accept:", "\n  roster repo accept --repo nostr://"} {
		if !strings.Contains(r.Out, s) {
			t.Fatalf("stdout lacks %q:\n%s", s, r.Out)
		}
	}
	// The share says how Bob accepts: next: does not say it again.
	for _, s := range []string{`["m"`, "materialize", "not checked", "relays asked:", "your announcement:", "is invited; they have no maintainer authority"} {
		if strings.Contains(r.Out, s) {
			t.Fatalf("%q without --verbose:\n%s", s, r.Out)
		}
	}
	// --verbose adds each change to the announcement, in words and with the
	// tag it writes, dates not epochs, and the full evidence.
	r = w.Run(clitest.Alice, clitest.Alice, 1050, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--dry-run", "--verbose")
	for _, s := range []string{"your announcement:", "  - lists " + clitest.Carol.Npub() + " as a maintainer from 1970-01-01 00:17:30 UTC",
		`tag ["m", "` + clitest.Carol.Pk + `", "1050"] (start m)`, "consequences:", "evidence:", "  - relays asked: 1"} {
		if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, s) {
			t.Fatalf("exit %d, --verbose lacks %q:\n%s%s", r.Code, s, r.Out, r.Err)
		}
	}
	r = w.Run(clitest.Bob, clitest.Alice, 1100, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	if r.Code != cmdutil.ExitRefused || r.Out != "" {
		t.Fatalf("exit %d, stdout %q", r.Code, r.Out)
	}
	for _, s := range []string{"only the resolved lead should add maintainers to this repository", "ask " + clitest.Alice.Npub() + " to run:",
		"  run: roster repo edit --add-maintainer " + clitest.Carol.Npub(), "nothing was published"} {
		if !strings.Contains(r.Err, s) {
			t.Fatalf("stderr lacks %q:\n%s", s, r.Err)
		}
	}
	// Never a prompt: nothing is read from stdin, and an offline write is refused.
	r = w.Run(clitest.Alice, clitest.Alice, 1200, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--offline")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "--offline cannot be used for a membership change") {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
}
