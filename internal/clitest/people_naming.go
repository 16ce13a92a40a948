package clitest

import (
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// NamedProfile is sk's kind 0 profile naming it name.
func NamedProfile(t *testing.T, sk, name string) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: 0, CreatedAt: nostr.Now() - 5, Tags: nostr.Tags{}, Content: `{"name":"` + name + `"}`}
	if err := evt.Sign(sk); err != nil {
		t.Fatal(err)
	}
	return evt
}

// RunAs is w.run with stdout (and stderr) a terminal when tty.
func (w *MutWorld) RunAs(tty bool, p Person, now int64, args ...string) Result {
	w.T.Helper()
	full := append([]string{"--repo", p.Naddr(w.Id), "--timeout", "5s", "--home", w.Home["ROSTER_HOME"]}, RelayArgs(w.Relays)...)
	env := WithKey(w.Home, p)
	env["NO_COLOR"], env["COLUMNS"] = "1", "200"
	return Invocation{Env: env, Dir: w.Dir, Now: time.Unix(now, 0), Seams: w.Seams, OutTTY: tty, ErrTTY: tty}.Roster(w.T, append(full, args...)...)
}
