package repo_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// A relay serving forged or altered events: roster ignores them (every event
// is id- and signature-checked before use) and, for people, says the relay sent events that failed verification.
func TestRepoNamesARelayThatServedTamperedEvents(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), clitest.LeadShaped(t, "proj")...)
	tampered := clitest.Alice.Announce(t, "proj", 5001, nostr.Tag{"M", clitest.Alice.Pk})
	tampered.Tags = append(tampered.Tags, nostr.Tag{"m", clitest.NewPerson("trent").Pk}) // id no longer matches
	relays[0].Inject(tampered)

	r := clitest.Invocation{Env: clitest.TestEnv(t)}.Roster(t, "repo", "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	if !strings.Contains(r.Out, relays[0].URL()+"  ok, 4 event(s), 1 ignored (bad id, signature or filter)") {
		t.Fatalf("relay line does not report the ignored event:\n%s", r.Out)
	}
}
