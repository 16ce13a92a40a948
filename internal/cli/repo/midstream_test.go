package repo_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (a partial read never passes a guess for a fact): Alice invited
// Bob; Bob's acceptance is only on the second relay, which breaks the
// stream before sending it. `roster repo` still answers (a read exits 0
// with complete: false), but it does not show Bob plainly as invited: the
// status says it is what the relays that answered show and that an
// acceptance may be on the one that did not; JSON says complete: false.
func TestAMidStreamBreakDoesNotShowAConfirmedPersonAsPlainlyInvited(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 2)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	clitest.Publish(t, w.Relays[1].URL(), clitest.Bob.Announce(t, w.Id, 1500, clitest.Role("M", clitest.Alice, "1000"), clitest.Role("m", clitest.Bob, "1000"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)))
	w.Relays[1].SetMisbehaviour(devrelay.Misbehaviour{BreakAfter: 1, Withhold: func(e *nostr.Event) bool { return e.PubKey == clitest.Bob.Pk }})
	r := w.Run(clitest.Carol, clitest.Alice, 3000, "repo")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	flat := strings.Join(strings.Fields(r.Out), " ")
	if !strings.Contains(flat, clitest.Bob.Npub()+" invited as far as the relays that answered show") || !strings.Contains(flat, "complete no: partial answer") {
		t.Fatalf("Bob is shown as plainly invited on a partial read:\n%s", r.Out)
	}
	j := w.Run(clitest.Carol, clitest.Alice, 3000, "repo", "--json")
	if j.Code != cmdutil.ExitOK || !strings.Contains(j.Out, `"complete": false`) {
		t.Fatalf("exit %d\n%.2000s", j.Code, j.Out)
	}
}
