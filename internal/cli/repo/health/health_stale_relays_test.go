package health_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (a relay serving an old version is a health finding): beside an
// honest relay, a second relay serves the previous version of Alice's
// announcement and withholds the current one. repo health reports a
// stale-relays warning naming that relay, Alice's announcement and both
// event ids, any maintainer can act on it, so --strict fails (exit 5);
// with both relays serving the current version the same check is clean.
func TestHealthNamesARelayServingAnOlderAnnouncement(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	current := clitest.LeadShaped(t, "proj")
	previous := clitest.Alice.Announce(t, "proj", 900, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob))
	for _, r := range relays {
		clitest.Publish(t, r.URL(), current...)
	}
	health := func(args ...string) clitest.Result {
		return clitest.Invocation{Env: clitest.TestEnv(t)}.Roster(t, append([]string{"repo", "health", "--repo", clitest.Alice.Naddr("proj"),
			"--relay", relays[0].URL(), "--relay", relays[1].URL(), "--no-git-servers"}, args...)...)
	}
	if r := health("--strict"); r.Code != cmdutil.ExitOK || strings.Contains(r.Out, "stale-relays") {
		t.Fatalf("both relays serve the current version: exit %d, want 0 without stale-relays\n%s%s", r.Code, r.Out, r.Err)
	}

	relays[1].Inject(previous)
	relays[1].SetMisbehaviour(devrelay.Misbehaviour{Withhold: func(e *nostr.Event) bool { return e.ID == current[0].ID }})
	r := health("--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d without --strict, want 0 (a warning)\n%s%s", r.Code, r.Out, r.Err)
	}
	var h struct {
		Findings []struct {
			Severity, Code, Message, Actor string
			Author                         *string
			ActorIsMaintainer              bool `json:"actor_is_maintainer"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.Out), &h); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.Out)
	}
	var stale []string
	for _, f := range h.Findings {
		if f.Code != "stale-relays" {
			continue
		}
		stale = append(stale, f.Message)
		if f.Severity != "warning" || f.Author == nil || *f.Author != clitest.Alice.Npub() || f.Actor != "any-maintainer" || !f.ActorIsMaintainer {
			t.Errorf("finding %+v: want a warning about Alice's announcement any maintainer can act on", f)
		}
		for _, want := range []string{relays[1].URL(), previous.ID, current[0].ID} {
			if !strings.Contains(f.Message, want) {
				t.Errorf("the finding does not name %s: %s", want, f.Message)
			}
		}
		if strings.Contains(f.Message, relays[0].URL()) {
			t.Errorf("the finding names the honest relay: %s", f.Message)
		}
	}
	if len(stale) != 1 {
		t.Fatalf("%d stale-relays findings, want 1 (the stale relay, Alice's announcement):\n%s", len(stale), r.Out)
	}
	if r := health("--strict"); r.Code != cmdutil.ExitUnhealthy || !strings.Contains(r.Out, "stale-relays: the relay "+relays[1].URL()) {
		t.Fatalf("--strict with a stale relay: exit %d, want 5 naming it\n%s%s", r.Code, r.Out, r.Err)
	}
}
