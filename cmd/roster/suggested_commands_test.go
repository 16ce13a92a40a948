package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
)

// Rule (a suggested command runs as printed): whatever stopped a read, the
// commands it suggests repeat the --repo, --relay and --home the user gave,
// so pasting one asks the same repository, the same relays and the same
// cache. The membership refusals are checked on every refusal the mutation
// suite provokes (mutWorld.refused); this table covers the read-side codes.
func TestEveryReadRefusalSuggestionCarriesTheUsersSelectors(t *testing.T) {
	t.Parallel()
	live := devrelay.StartN(t, 1, devrelay.Options{})[0]
	empty := devrelay.StartN(t, 1, devrelay.Options{})[0]
	clitest.Publish(t, live.URL(), clitest.LeadShaped(t, "proj")...)
	const dead = "ws://127.0.0.1:1"
	corruptHome := t.TempDir()
	if err := os.WriteFile(filepath.Join(corruptHome, "cache.db"), []byte(strings.Repeat("not a bolt file ", 400)), 0o600); err != nil {
		t.Fatal(err)
	}
	repo := clitest.Alice.Naddr("proj")
	for _, c := range []struct {
		code   string
		home   string
		relays []string
		extra  []string
	}{
		{"not-found", t.TempDir(), []string{empty.URL()}, nil},
		{"incomplete", t.TempDir(), []string{dead}, []string{"--timeout", "1s"}},
		{"incomplete", t.TempDir(), []string{live.URL(), dead}, []string{"health", "--timeout", "1s"}},
		{"not-found", t.TempDir(), []string{live.URL()}, []string{"--offline"}},
		{"cache-corrupt", corruptHome, []string{live.URL()}, []string{"--offline"}},
	} {
		args := []string{"repo"}
		if len(c.extra) > 0 && c.extra[0] == "health" {
			args, c.extra = append(args, "health"), c.extra[1:]
		}
		args = append(args, "--json", "--repo", repo, "--home", c.home)
		for _, r := range c.relays {
			args = append(args, "--relay", r)
		}
		args = append(args, c.extra...)
		r := clitest.Invocation{Env: map[string]string{"HOME": t.TempDir()}}.Roster(t, args...)
		e := clitest.ErrorBody(t, r)
		if e.Code != c.code || len(e.Commands) == 0 {
			t.Errorf("%v: code %s, commands %q, want %s with commands", args, e.Code, e.Commands, c.code)
			continue
		}
		clitest.CarrySelectors(t, e.Commands, repo, c.relays, c.home)
	}
}
