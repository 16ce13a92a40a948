package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (relay sources): relays come from --relay, else ROSTER_RELAYS/config. With neither
// flag nor environment, the relays of $ROSTER_HOME/config.yaml are asked.
func TestConfigRelaysAreUsedWhenNoFlagOrEnvironmentNamesOne(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("relays: ["+relays[0].URL()+"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ROSTER_HOME": home}
	r := clitest.Invocation{Env: env}.Roster(t, "group", "show", "no-such-group", "--json")
	if relays[0].ReqCount() == 0 {
		t.Fatalf("the relay of config.yaml was not asked (exit %d, out %s, err %s)", r.Code, r.Out, r.Err)
	}

	// ROSTER_RELAYS wins over the file.
	other := devrelay.StartN(t, 1, devrelay.Options{})
	before := relays[0].ReqCount()
	env["ROSTER_RELAYS"] = other[0].URL()
	clitest.Invocation{Env: env}.Roster(t, "group", "show", "no-such-group", "--json")
	if relays[0].ReqCount() != before || other[0].ReqCount() == 0 {
		t.Fatalf("ROSTER_RELAYS did not replace config.yaml's relays (config relay REQs %d -> %d, env relay %d)",
			before, relays[0].ReqCount(), other[0].ReqCount())
	}
}

// A config.yaml that does not parse, or names an unknown key, is a usage
// error naming the file: a typo must not silently drop the user's relays.
func TestMalformedConfigIsUsageErrorNamingTheFile(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"syntax":      "relays: [wss://a\n",
		"unknown key": "relay: [wss://a]\n",
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			path := filepath.Join(home, "config.yaml")
			if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			r := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": home}}.Roster(t, "whoami")
			if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, path) || !strings.Contains(r.Err, "relays") {
				t.Fatalf("exit %d err %q", r.Code, r.Err)
			}
		})
	}
}

func TestEmptyConfigIsNoConfig(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := cmdutil.LoadConfig(home)
	if err != nil || len(cfg.Relays) != 0 {
		t.Fatalf("empty config.yaml: %+v, %v", cfg, err)
	}
}
