package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/devrelay"
)

// Rule (errors and advice name the next command, each once): the --json
// "guidance" of a membership preview names `roster repo follow-lead` once,
// like the human "next:" section, instead of once per person. Carol
// accepts her invitation in the demo repository: alice's history is pending
// bob's start and dave's end, and bob must follow her acceptance too.
func TestMutationJSONGuidanceNamesEachCommandOnce(t *testing.T) {
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	demo, err := devrelay.SeedDemo(relay, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ROSTER_SECRET_KEY": devrelay.DemoKey("carol"), "ROSTER_HOME": t.TempDir()}
	r := invocation{Env: env, Dir: t.TempDir()}.roster(t, "repo", "accept", "--dry-run", "--json", "--repo", demo.Naddr, "--relay", relay.URL())
	if r.Code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	var m struct {
		Guidance []string `json:"guidance"`
	}
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.Out)
	}
	all := strings.Join(m.Guidance, "\n")
	if n := strings.Count(all, "roster repo follow-lead"); n != 1 {
		t.Fatalf("roster repo follow-lead named %d times in the JSON guidance:\n%s", n, all)
	}
	for _, name := range []string{"bob", "dave"} {
		if npub := demoNpub(t, name); !strings.Contains(all, npub) {
			t.Errorf("%s (%s) is not named in:\n%s", name, npub, all)
		}
	}
	for i, g := range m.Guidance {
		for _, prev := range m.Guidance[:i] {
			if g == prev {
				t.Errorf("guidance repeats %q", g)
			}
		}
	}
}

// Rule (guidance is accurate): a shared command's parts concern different
// people — Carol's own history and Bob's, which only Bob can record — so
// the human "next:" heading does not say one run covers them.
func TestSharedGuidanceCommandDoesNotClaimOneRunCoversEveryone(t *testing.T) {
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	demo, err := devrelay.SeedDemo(relay, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ROSTER_SECRET_KEY": devrelay.DemoKey("carol"), "ROSTER_HOME": t.TempDir()}
	r := invocation{Env: env, Dir: t.TempDir()}.roster(t, "repo", "accept", "--dry-run", "--repo", demo.Naddr, "--relay", relay.URL())
	_, next, ok := strings.Cut(r.Out, "\nnext:\n")
	if r.Code != exitOK || !ok {
		t.Fatalf("exit %d, no next: section\n%s%s", r.Code, r.Out, r.Err)
	}
	if strings.Contains(next, "run once") || !strings.Contains(next, "# the same command, for each of:") {
		t.Fatalf("next: section:\n%s", next)
	}
}
