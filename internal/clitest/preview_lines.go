package clitest

import (
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// OnTerminal runs args as p in the state scene on a terminal of cols
// columns and fails unless roster exits 0; it returns stdout.
func (s *StateScene) OnTerminal(p Person, now int64, cols string, args ...string) string {
	s.W.T.Helper()
	full := append([]string{"--repo", Alice.Naddr(s.W.Id), "--timeout", "5s", "--home", s.W.Home["ROSTER_HOME"]}, RelayArgs(s.W.Relays)...)
	env := WithKey(s.W.Home, p)
	env["COLUMNS"], env["NO_COLOR"] = cols, "1"
	r := Invocation{Env: env, Dir: s.W.Dir, Now: time.Unix(now, 0), OutTTY: true}.Roster(s.W.T, append(full, args...)...)
	if r.Code != cmdutil.ExitOK {
		s.W.T.Fatalf("roster %v as %s: exit %d\n%s%s", args, p.Name, r.Code, r.Out, r.Err)
	}
	return r.Out
}
