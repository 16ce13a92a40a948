package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (relay values are either valid or refused): a mistyped relay next
// to a good one, in --relay, ROSTER_RELAYS or config.yaml, is exit 2 naming
// the setting and the value before anything is read or written; it is
// never dropped so that the write is decided on the other relays alone.
func TestAMistypedRelayIsRefusedNotDropped(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	good := w.Relays[0].URL()
	for _, bad := range []string{"ws//127.0.0.1:7777", "ws://127.0.0.1:"} {
		for _, where := range []string{"--relay", "ROSTER_RELAYS", "config.yaml"} {
			env := clitest.WithKey(clitest.TestEnv(t), clitest.Alice)
			args := []string{"repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--repo", clitest.Alice.Naddr(w.Id), "--json"}
			name := where
			switch where {
			case "--relay":
				args = append(args, "--relay", good, "--relay", bad)
			case "ROSTER_RELAYS":
				env["ROSTER_RELAYS"] = good + "," + bad
			case "config.yaml":
				if err := os.WriteFile(filepath.Join(env["ROSTER_HOME"], "config.yaml"), []byte("relays: ["+good+", \""+bad+"\"]\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				name = "config.yaml relays"
			}
			reqs, events := w.Relays[0].ReqCount(), w.Relays[0].EventCount()
			r := clitest.Invocation{Env: env, Dir: t.TempDir()}.Roster(t, args...)
			said := r.Out + r.Err
			if r.Code != cmdutil.ExitUsage || !strings.Contains(said, name) || !strings.Contains(said, bad) || !strings.Contains(said, "is not a relay URL") {
				t.Errorf("%s %s: exit %d\n%s%s\nwant 2 naming %s and %q", where, bad, r.Code, r.Out, r.Err, name, bad)
			}
			if w.Relays[0].ReqCount() != reqs || w.Relays[0].EventCount() != events {
				t.Errorf("%s %s: the good relay was asked or written to", where, bad)
			}
		}
	}
}
