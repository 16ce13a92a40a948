package main

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// A relay serving forged or altered events: roster ignores them (every event
// is id- and signature-checked before use) and, for people, says the relay sent events that failed verification.
func TestRepoNamesARelayThatServedTamperedEvents(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	publish(t, relays[0].URL(), leadShaped(t, "proj")...)
	tampered := alice.announce(t, "proj", 5001, nostr.Tag{"M", alice.pk})
	tampered.Tags = append(tampered.Tags, nostr.Tag{"m", newPerson("trent").pk}) // id no longer matches
	relays[0].Inject(tampered)

	r := invocation{Env: testEnv(t)}.roster(t, "repo", "--repo", alice.naddr("proj"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	if !strings.Contains(r.Out, relays[0].URL()+"  ok, 4 event(s), 1 ignored (bad id, signature or filter)") {
		t.Fatalf("relay line does not report the ignored event:\n%s", r.Out)
	}
}
