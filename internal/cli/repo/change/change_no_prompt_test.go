package change_test

import (
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (after every command, the spec's guidance is printed: never an
// interactive prompt, never an automatic publish; maintainers.md: the lead
// "is shown" the acknowledgement command; it is not run for them). Every
// party's next command prints its guidance with a "yes" waiting on stdin,
// and neither reading it nor answering it publishes anything.
func TestGuidanceIsNeverAPromptOrAnAutomaticPublish(t *testing.T) {
	t.Parallel()
	w := threeMaintainers(t)
	w.Ok(clitest.Alice, clitest.Alice, 4000, "repo", "edit", "--remove-maintainer", clitest.Carol.Npub())
	w.Ok(clitest.Alice, clitest.Alice, 4100, "repo", "edit", "--add-maintainer", clitest.Dave.Npub())
	w.Ok(clitest.Dave, clitest.Alice, 4200, "repo", "accept")
	cases := []struct {
		who  clitest.Person
		want string
	}{
		{clitest.Alice, "roster repo edit --acknowledge-maintainer-change " + clitest.Dave.Npub()},
		{clitest.Bob, "roster repo follow-lead"},
		{clitest.Carol, "no longer lists you as a maintainer"},
	}
	for _, c := range cases {
		for _, args := range [][]string{{"repo"}, {"repo", "--json"}} {
			before := w.StoredCount()
			full := append([]string{"--repo", clitest.Alice.Naddr(w.Id), "--timeout", "5s"}, clitest.RelayArgs(w.Relays)...)
			r := clitest.Invocation{Env: clitest.WithKey(w.Home, c.who), Dir: w.Dir, Now: time.Unix(4300, 0), Stdin: "y\ny\ny\n"}.Roster(t, append(full, args...)...)
			if r.Code != cmdutil.ExitOK {
				t.Fatalf("%s %v: exit %d\n%s\n%s", c.who.Name, args, r.Code, r.Out, r.Err)
			}
			if !strings.Contains(r.Out+r.Err, c.want) {
				t.Fatalf("%s %v is not shown %q:\n%s\n%s", c.who.Name, args, c.want, r.Out, r.Err)
			}
			if got := strings.ToLower(r.Out + r.Err); strings.Contains(got, "[y/n]") || strings.Contains(got, "(y/n)") || strings.Contains(got, "continue?") {
				t.Fatalf("%s %v was prompted:\n%s", c.who.Name, args, r.Err)
			}
			if w.StoredCount() != before {
				t.Fatalf("%s %v published %d event(s) on its own", c.who.Name, args, w.StoredCount()-before)
			}
		}
	}
}
