package main

import (
	"strings"
	"testing"
	"time"

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
	w.ok(alice, alice, 4000, "repo", "edit", "--remove-maintainer", carol.npub())
	w.ok(alice, alice, 4100, "repo", "edit", "--add-maintainer", dave.npub())
	w.ok(dave, alice, 4200, "repo", "accept")
	cases := []struct {
		who  person
		want string
	}{
		{alice, "roster repo edit --acknowledge-maintainer-change " + dave.npub()},
		{bob, "roster repo follow-lead"},
		{carol, "no longer lists you as a maintainer"},
	}
	for _, c := range cases {
		for _, args := range [][]string{{"repo"}, {"repo", "--json"}} {
			before := w.storedCount()
			full := append([]string{"--repo", alice.naddr(w.id), "--timeout", "5s"}, relayArgs(w.relays)...)
			r := invocation{Env: withKey(w.home, c.who), Dir: w.dir, Now: time.Unix(4300, 0), Stdin: "y\ny\ny\n"}.roster(t, append(full, args...)...)
			if r.Code != cmdutil.ExitOK {
				t.Fatalf("%s %v: exit %d\n%s\n%s", c.who.name, args, r.Code, r.Out, r.Err)
			}
			if !strings.Contains(r.Out+r.Err, c.want) {
				t.Fatalf("%s %v is not shown %q:\n%s\n%s", c.who.name, args, c.want, r.Out, r.Err)
			}
			if got := strings.ToLower(r.Out + r.Err); strings.Contains(got, "[y/n]") || strings.Contains(got, "(y/n)") || strings.Contains(got, "continue?") {
				t.Fatalf("%s %v was prompted:\n%s", c.who.name, args, r.Err)
			}
			if w.storedCount() != before {
				t.Fatalf("%s %v published %d event(s) on its own", c.who.name, args, w.storedCount()-before)
			}
		}
	}
}
