package clitest

import (
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// CheckEventWorld: Alice leads, Bob was invited at 1000 and accepted at
// 2000; Erin opened an issue at 500.
func CheckEventWorld(t *testing.T) (*MutWorld, *nostr.Event) {
	w := TwoMaintainers(t)
	issue := Erin.Sign(t, 1621, 500, nostr.Tag{"a", "30617:" + Alice.Pk + ":" + w.Id}, nostr.Tag{"subject", "it breaks"})
	w.Seed(issue)
	return w, issue
}

// CheckEvent runs `roster repo check-event` without --repo (the event
// names its repository) against w's relays.
func (w *MutWorld) CheckEvent(args ...string) Result {
	w.T.Helper()
	full := append([]string{"repo", "check-event", "--timeout", "5s", "--home", w.Home["ROSTER_HOME"]}, RelayArgs(w.Relays)...)
	return Invocation{Env: w.Home, Dir: w.Dir, Now: time.Unix(10_000, 0)}.Roster(w.T, append(full, args...)...)
}
