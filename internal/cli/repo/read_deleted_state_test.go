package repo_test

import (
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (reads and writes agree on a deleted state; graph.EligibleStates):
// a state its author deleted (NIP-09, by `e` id only, the deletion held by
// one relay, the state still served by both) is not the repository's state
// for `roster repo` or `roster repo state`, on a cold cache as on a warm
// one, just as a write treats it; the state before it stands.
func TestReadsTreatADeletedStateAsWritesDo(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	evts := clitest.LeadShaped(t, "proj")
	bobState := evts[3]
	older := clitest.Alice.State(t, "proj", 1002, "cd"+bobState.Tags.GetFirst([]string{"refs/heads/main"}).Value()[2:])
	for _, r := range relays {
		clitest.Publish(t, r.URL(), append(evts, older)...)
	}
	clitest.Publish(t, relays[1].URL(), clitest.Bob.Sign(t, graph.KindDeletion, 1004, nostr.Tag{"e", bobState.ID}, nostr.Tag{"k", "30618"}))
	relays[1].Inject(bobState) // a relay that keeps serving deleted events
	env := clitest.TestEnv(t)
	args := []string{"--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL(), "--relay", relays[1].URL()}
	for _, read := range []string{"cold", "warm"} {
		doc, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: env}, args...)
		st, _ := doc["state"].(map[string]any)
		if r.Code != cmdutil.ExitOK || st == nil || st["event_id"] != older.ID {
			t.Fatalf("%s roster repo: exit %d, state %v, want alice's %s (bob deleted his):\n%s", read, r.Code, doc["state"], older.ID, r.Err)
		}
		s := clitest.Invocation{Env: env}.Roster(t, append([]string{"repo", "state", "--json", "--no-git-servers"}, args...)...)
		var sd struct {
			State *struct {
				EventID string `json:"event_id"`
			} `json:"state"`
		}
		clitest.DecodeJSON(t, s, &sd)
		if s.Code != cmdutil.ExitOK || sd.State == nil || sd.State.EventID != older.ID {
			t.Fatalf("%s roster repo state: exit %d:\n%s%s", read, s.Code, s.Out, s.Err)
		}
	}
}
