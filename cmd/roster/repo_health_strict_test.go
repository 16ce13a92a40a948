package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// removalDone is a lead-shaped repository after alice removed carol, with
// the maintainers' part done: bob's announcement records carol's tenure
// (follow-lead), and only carol's own stale announcement still lists her.
func removalDone(t *testing.T, bobAcknowledged bool) []*nostr.Event {
	bobRoles := []nostr.Tag{role("M", alice, "200"), role("m", bob, "200")}
	if bobAcknowledged {
		bobRoles = append(bobRoles, role("m", carol, "300", "400"))
	} else {
		bobRoles = append(bobRoles, role("m", carol, "300")) // his copy from before the removal
	}
	return []*nostr.Event{
		alice.announce(t, "proj", 1000, role("M", alice), role("m", bob, "200"), role("m", carol, "300", "400"), maintainersTag(alice, bob)),
		bob.announce(t, "proj", 1001, append(bobRoles, maintainersTag(alice, bob))...),
		carol.announce(t, "proj", 1002, role("M", alice, "300"), role("m", carol, "300"), maintainersTag(alice, carol)),
	}
}

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

func parseHealth(t *testing.T, r result) healthDoc {
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
	publish(t, relays[0].URL(), removalDone(t, true)...)
	run := func(env map[string]string, args ...string) result {
		return invocation{Env: env}.roster(t, append([]string{"repo", "health", "--repo", alice.naddr("proj"), "--relay", relays[0].URL(), "--no-git-servers"}, args...)...)
	}
	for _, c := range []struct {
		name string
		env  map[string]string
		args []string
		code int
	}{
		{"no key --strict", testEnv(t), []string{"--strict"}, cmdutil.ExitOK},
		{"alice --strict", withKey(testEnv(t), alice), []string{"--strict"}, cmdutil.ExitOK},
		{"bob --strict", withKey(testEnv(t), bob), []string{"--strict"}, cmdutil.ExitOK},
		{"carol", withKey(testEnv(t), carol), nil, cmdutil.ExitUnhealthy},
		{"carol --strict", withKey(testEnv(t), carol), []string{"--strict"}, cmdutil.ExitUnhealthy},
		{"no key --strict=all", testEnv(t), []string{"--strict=all"}, cmdutil.ExitUnhealthy},
		{"no key --strict=true", testEnv(t), []string{"--strict=true"}, cmdutil.ExitOK},
		{"carol --strict=false", withKey(testEnv(t), carol), []string{"--strict=false"}, cmdutil.ExitUnhealthy},
	} {
		r := run(c.env, append(c.args, "--json")...)
		if r.Code != c.code {
			t.Errorf("%s: exit %d, want %d:\n%s%s", c.name, r.Code, c.code, r.Out, r.Err)
			continue
		}
		h := parseHealth(t, r)
		var removed int
		for _, f := range h.Findings {
			if f.Code == "removed-by-lead" {
				removed++
				if f.Actor != carol.npub() || f.ActorIsMaintainer || f.Command == nil || *f.Command != "roster repo follow-lead" {
					t.Errorf("%s: removal finding %+v, want carol's, not a current maintainer's, with follow-lead", c.name, f)
				}
			}
		}
		if removed != 1 {
			t.Errorf("%s: %d removed-by-lead findings, want 1:\n%s", c.name, removed, r.Out)
		}
	}
	// The human output says whose move it is.
	r := run(testEnv(t), "--strict")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, carol.npub()+" should run: roster repo follow-lead") ||
		!strings.Contains(r.Out, "not counted by --strict") {
		t.Fatalf("no key --strict: exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
	r = run(withKey(testEnv(t), carol))
	if !strings.Contains(r.Out, "you should run: roster repo follow-lead") {
		t.Fatalf("carol is not told it is her move:\n%s%s", r.Out, r.Err)
	}
	// roster repo's health rows say whose move it is too.
	r = invocation{Env: testEnv(t)}.roster(t, "repo", "--repo", alice.naddr("proj"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, carol.npub()+" should run: roster repo follow-lead") {
		t.Fatalf("roster repo: exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
}

// Rule (repo health --strict): until the current maintainers have done
// their part (bob's record of carol's tenure), --strict fails, with and
// without a key alike, and names the maintainer whose move it is.
func TestHealthStrictFailsUntilMaintainersActWithAndWithoutKey(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	publish(t, relays[0].URL(), removalDone(t, false)...)
	for _, env := range []map[string]string{testEnv(t), withKey(testEnv(t), alice), withKey(testEnv(t), bob)} {
		r := invocation{Env: env}.roster(t, "repo", "health", "--strict", "--json", "--no-git-servers", "--repo", alice.naddr("proj"), "--relay", relays[0].URL())
		if r.Code != cmdutil.ExitUnhealthy {
			t.Fatalf("exit %d, want 5:\n%s%s", r.Code, r.Out, r.Err)
		}
		gating := false
		for _, f := range parseHealth(t, r).Findings {
			if f.ActorIsMaintainer && f.Actor == bob.npub() {
				gating = true
			}
		}
		if !gating {
			t.Fatalf("no finding for bob to act on:\n%s", r.Out)
		}
	}
}
