package clitest

import "time"

// RunNoRepo runs roster as p in dir without --repo (the checkout selects).
func (w *MutWorld) RunNoRepo(dir string, p Person, now int64, args ...string) Result {
	w.T.Helper()
	full := append([]string{"--timeout", "5s", "--home", w.Home["ROSTER_HOME"]}, RelayArgs(w.Relays)...)
	return Invocation{Env: WithKey(w.Home, p), Dir: dir, Now: time.Unix(now, 0)}.Roster(w.T, append(full, args...)...)
}
