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

// mismatched is a lead-shaped repository whose lead announcement has a
// `maintainers` projection that contradicts its indexed roles.
func mismatched(t *testing.T) []*nostr.Event {
	return []*nostr.Event{
		clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Carol)),
		clitest.Bob.Announce(t, "proj", 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
	}
}

func healthRun(t *testing.T, env map[string]string, events []*nostr.Event, args ...string) clitest.Result {
	t.Helper()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), events...)
	return clitest.Invocation{Env: env}.Roster(t, append([]string{"repo", "health", "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL()}, args...)...)
}

// Rule (repo health exit codes): exit 0 when healthy.
func TestHealthHealthyRepositoryExits0(t *testing.T) {
	t.Parallel()
	r := healthRun(t, clitest.TestEnv(t), clitest.LeadShaped(t, "proj"))
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "healthy: 0 error(s), 0 warning(s)") {
		t.Fatalf("exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
}

// Rule (repo health exit codes): exit 5 on an error-severity finding. A projection mismatch is an
// error for its author (maintainers.md: "a repository-health error in the
// author's announcement"), so CI running as that author fails.
func TestHealthErrorFindingExits5(t *testing.T) {
	t.Parallel()
	r := healthRun(t, clitest.WithKey(clitest.TestEnv(t), clitest.Alice), mismatched(t), "--json")
	if r.Code != cmdutil.ExitUnhealthy {
		t.Fatalf("exit %d, want 5:\n%s%s", r.Code, r.Out, r.Err)
	}
	var h struct {
		Schema   string `json:"schema"`
		Healthy  bool   `json:"healthy"`
		Errors   int    `json:"errors"`
		Findings []struct {
			Severity, Code string
			Author         *string
			Command        *string
		} `json:"findings"`
		Complete bool `json:"complete"`
	}
	if err := json.Unmarshal([]byte(r.Out), &h); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.Out)
	}
	if h.Schema != "roster.repo-health/v1" || h.Healthy || h.Errors != 1 || !h.Complete || len(h.Findings) != 1 {
		t.Fatalf("health report:\n%s", r.Out)
	}
	f := h.Findings[0]
	if f.Severity != "error" || f.Code != "maintainers-projection-mismatch" || f.Author == nil || *f.Author != clitest.Alice.Npub() ||
		f.Command == nil || *f.Command != "roster repo edit --fix-maintainers" {
		t.Fatalf("finding %+v", f)
	}
}

// Rule (repo health --strict): warnings pass unless --strict, which fails on them too.
func TestHealthWarningsPassUnlessStrict(t *testing.T) {
	t.Parallel()
	env := clitest.TestEnv(t) // nobody signed in: the mismatch is a warning for the viewer
	if r := healthRun(t, env, mismatched(t)); r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "maintainers-projection-mismatch") {
		t.Fatalf("exit %d, want 0 listing the warning:\n%s%s", r.Code, r.Out, r.Err)
	}
	r := healthRun(t, env, mismatched(t), "--strict")
	if r.Code != cmdutil.ExitUnhealthy || !strings.Contains(r.Out, "--strict") {
		t.Fatalf("--strict exit %d, want 5:\n%s%s", r.Code, r.Out, r.Err)
	}
}

// Rule (repo health exit codes): exit 4 when evidence is incomplete (a silent relay times out),
// even though the answering relay shows nothing wrong.
func TestHealthIncompleteEvidenceExits4(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	for _, r := range relays {
		clitest.Publish(t, r.URL(), clitest.LeadShaped(t, "proj")...)
	}
	relays[1].SetSilent(true)
	r := clitest.Invocation{Env: clitest.TestEnv(t)}.Roster(t, "repo", "health", "--json", "--timeout", "300ms",
		"--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL(), "--relay", relays[1].URL())
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, `"code": "incomplete"`) || !strings.Contains(r.Out, `"status": "timeout"`) {
		t.Fatalf("exit %d, want 4 with an incomplete error naming the timeout:\n%s", r.Code, r.Out)
	}
}

// maintainers.md "Relay disagreement": "a locally cached older event is not
// proof that it is still latest", so health from the cache alone is exit 4.
func TestHealthOfflineIsIncompleteEvidence(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), clitest.LeadShaped(t, "proj")...)
	env := clitest.TestEnv(t)
	fetch := clitest.Invocation{Env: env}.Roster(t, "repo", "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL())
	if fetch.Code != cmdutil.ExitOK {
		t.Fatalf("fetch exit %d: %s", fetch.Code, fetch.Err)
	}
	r := clitest.Invocation{Env: env}.Roster(t, "repo", "health", "--offline", "--repo", clitest.Alice.Naddr("proj"))
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, "without --offline") && strings.Contains(r.Err, "cache") {
		t.Fatalf("exit %d, want 4:\n%s", r.Code, r.Err)
	}
}
