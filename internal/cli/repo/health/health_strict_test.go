package health_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

type healthDoc struct {
	Healthy        bool    `json:"healthy"`
	StrictScope    *string `json:"strict_scope"`
	Errors         int     `json:"errors"`
	Warnings       int     `json:"warnings"`
	GatingWarnings int     `json:"gating_warnings"`
	Findings       []struct {
		Severity          string  `json:"severity"`
		Code              string  `json:"code"`
		Actor             string  `json:"actor"`
		ActorIsMaintainer bool    `json:"actor_is_maintainer"`
		Command           *string `json:"command"`
	} `json:"findings"`
}

func parseHealthDoc(t *testing.T, r clitest.Result) healthDoc {
	t.Helper()
	var h healthDoc
	if err := json.Unmarshal([]byte(r.Out), &h); err != nil {
		t.Fatalf("not JSON: %v\n%s%s", err, r.Out, r.Err)
	}
	return h
}

// Rule (repo health --strict, a gate the maintainers can make green):
// author-scoped findings are an error for the affected signer and a warning
// for viewers (maintainers.md); --strict fails on the warnings the current
// maintainers can act on, not on those about people outside the current
// roster, unless --strict=all; and under --strict the exit code with no key
// equals the one with any current maintainer's key.
func TestHealthStrictCountsOnlyWhatCurrentMaintainersCanDo(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), clitest.RemovalDone(t, true)...)
	run := func(env map[string]string, args ...string) clitest.Result {
		return clitest.Invocation{Env: env}.Roster(t, append([]string{"repo", "health", "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL(), "--no-git-servers"}, args...)...)
	}
	for _, c := range []struct {
		name string
		env  map[string]string
		args []string
		code int
	}{
		{"no key --strict", clitest.TestEnv(t), []string{"--strict"}, cmdutil.ExitOK},
		{"alice --strict", clitest.WithKey(clitest.TestEnv(t), clitest.Alice), []string{"--strict"}, cmdutil.ExitOK},
		{"bob --strict", clitest.WithKey(clitest.TestEnv(t), clitest.Bob), []string{"--strict"}, cmdutil.ExitOK},
		{"carol", clitest.WithKey(clitest.TestEnv(t), clitest.Carol), nil, cmdutil.ExitUnhealthy},
		{"carol --strict", clitest.WithKey(clitest.TestEnv(t), clitest.Carol), []string{"--strict"}, cmdutil.ExitUnhealthy},
		{"no key --strict=all", clitest.TestEnv(t), []string{"--strict=all"}, cmdutil.ExitUnhealthy},
		{"no key --strict=true", clitest.TestEnv(t), []string{"--strict=true"}, cmdutil.ExitOK},
		{"carol --strict=false", clitest.WithKey(clitest.TestEnv(t), clitest.Carol), []string{"--strict=false"}, cmdutil.ExitUnhealthy},
	} {
		r := run(c.env, append(c.args, "--json")...)
		if r.Code != c.code {
			t.Errorf("%s: exit %d, want %d:\n%s%s", c.name, r.Code, c.code, r.Out, r.Err)
			continue
		}
		h := parseHealthDoc(t, r)
		var removed int
		for _, f := range h.Findings {
			if f.Code == "removed-by-lead" {
				removed++
				if f.Actor != clitest.Carol.Npub() || f.ActorIsMaintainer || f.Command == nil || *f.Command != "roster repo follow-lead" {
					t.Errorf("%s: removal finding %+v, want carol's, not a current maintainer's, with follow-lead", c.name, f)
				}
			}
		}
		if removed != 1 {
			t.Errorf("%s: %d removed-by-lead findings, want 1:\n%s", c.name, removed, r.Out)
		}
	}
	// The human output says whose move it is.
	r := run(clitest.TestEnv(t), "--strict")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, clitest.Carol.Npub()+" should run: roster repo follow-lead") ||
		!strings.Contains(r.Out, "not counted by --strict") {
		t.Fatalf("no key --strict: exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
	r = run(clitest.WithKey(clitest.TestEnv(t), clitest.Carol))
	if !strings.Contains(r.Out, "you should run: roster repo follow-lead") {
		t.Fatalf("carol is not told it is her move:\n%s%s", r.Out, r.Err)
	}
	// roster repo's health rows say whose move it is too.
	r = clitest.Invocation{Env: clitest.TestEnv(t)}.Roster(t, "repo", "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, clitest.Carol.Npub()+" should run: roster repo follow-lead") {
		t.Fatalf("roster repo: exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
}

// Rule (repo health --strict): until the current maintainers have done
// their part (bob's record of carol's tenure), --strict fails, with and
// without a key alike, and names the maintainer whose move it is.
func TestHealthStrictFailsUntilMaintainersActWithAndWithoutKey(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), clitest.RemovalDone(t, false)...)
	for _, env := range []map[string]string{clitest.TestEnv(t), clitest.WithKey(clitest.TestEnv(t), clitest.Alice), clitest.WithKey(clitest.TestEnv(t), clitest.Bob)} {
		r := clitest.Invocation{Env: env}.Roster(t, "repo", "health", "--strict", "--json", "--no-git-servers", "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL())
		if r.Code != cmdutil.ExitUnhealthy {
			t.Fatalf("exit %d, want 5:\n%s%s", r.Code, r.Out, r.Err)
		}
		gating := false
		for _, f := range parseHealthDoc(t, r).Findings {
			if f.ActorIsMaintainer && f.Actor == clitest.Bob.Npub() {
				gating = true
			}
		}
		if !gating {
			t.Fatalf("no finding for bob to act on:\n%s", r.Out)
		}
	}
}
