package main

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// slowWorld is a repository Alice leads on n relays that answer every REQ
// after hold, and a log of when each REQ arrived.
func slowWorld(t *testing.T, n int, hold time.Duration) (*clitest.MutWorld, *reqWindows) {
	w := clitest.HostileWorld(t, n, devrelay.Misbehaviour{})
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	log := &reqWindows{hold: hold}
	for i, r := range w.Relays {
		r.SetMisbehaviour(devrelay.Misbehaviour{DelayREQ: func(n int, _ nostr.Filter) time.Duration {
			log.arrived(i, n)
			return log.hold
		}})
	}
	return w, log
}

// reqWindows records, per relay and REQ, when the REQ arrived: each is
// held for hold, so it occupies the window [arrival, arrival+hold].
type reqWindows struct {
	hold time.Duration
	mu   sync.Mutex
	at   map[[2]int]time.Time
}

func (l *reqWindows) arrived(relay, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.at == nil {
		l.at = map[[2]int]time.Time{}
	}
	if _, seen := l.at[[2]int{relay, n}]; !seen { // one call per filter of a REQ
		l.at[[2]int{relay, n}] = time.Now()
	}
}

// rounds is how many REQ windows since start came one after another: the
// most windows no two of which overlap (the greedy by earliest end).
// Requests a command sends together (one per relay, or a profile read
// beside a follow-up) overlap and count once; a round that waits for the
// one before it does not overlap it. Machine load makes every window late,
// but cannot make two rounds one or one round two, unless it delays one
// parallel request by more than hold behind the other.
func (l *reqWindows) rounds(since time.Time) int {
	l.mu.Lock()
	var starts []time.Time
	for _, a := range l.at {
		if !a.Before(since) {
			starts = append(starts, a)
		}
	}
	l.mu.Unlock()
	slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
	n, free := 0, time.Time{}
	for _, s := range starts { // equal holds: earliest start is earliest end
		if !s.Before(free) {
			n++
			free = s.Add(l.hold)
		}
	}
	return n
}

// Rule (docs/usage.md "How long a command can take"): against relays that
// are slow to answer, a command waits for at most its documented number of
// rounds of --timeout. The scene names its relays with --relay (no round
// for announced relays), they answer together (no re-asks), and the
// commands share one home (profiles cached after the first read), so:
// `roster repo` waits for 2 rounds (the discovery, then the profiles;
// documented worst case 2), `repo health` 2 (the discovery and the deletion
// round; worst case 3), a dry run 2 (worst case 5), a write 2 + recheck 1 +
// read-back 1 (the re-read rides in it) + the re-read after the cut window
// 1 = 5 (worst case 12; the publish is answered at once and asks nothing).
//
// What is measured is the number of rounds, counted at the relays
// (reqWindows.rounds), never wall time divided by a round: one repeated
// round fails the test however loaded the machine is, and machine load
// cannot add one. The relays hold every REQ for hold, a tenth of
// --timeout, so a loaded machine has nine tenths of a timeout (over 2 s)
// before a relay counts as timed out and the command is incomplete. The
// wall time must still stay within the documented worst case (its rounds
// of --timeout), a bound that only a command waiting out whole timeouts
// can cross. TestRoundTripsPerCommand counts the REQs themselves.
func TestACommandTakesAtMostItsDocumentedRoundsOfTimeout(t *testing.T) {
	t.Parallel()
	const (
		hold    = 250 * time.Millisecond
		timeout = 10 * hold
	)
	w, log := slowWorld(t, 2, hold)
	for _, c := range []struct {
		rounds, worst int
		args          []string
	}{
		{2, 2, []string{"repo"}},
		{2, 3, []string{"repo", "health"}},
		{2, 5, []string{"repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--dry-run"}},
		{5, 12, []string{"repo", "edit", "--add-maintainer", clitest.Bob.Npub()}},
	} {
		start := time.Now()
		r := w.Run(clitest.Alice, clitest.Alice, 1000, append(c.args, "--timeout", timeout.String(), "--json")...)
		took := time.Since(start)
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("roster %s: exit %d\n%s\n%s", strings.Join(c.args, " "), r.Code, r.Out, r.Err)
		}
		if got := log.rounds(start); got != c.rounds {
			t.Errorf("roster %s waited for %d rounds of relay answers, want %d", strings.Join(c.args, " "), got, c.rounds)
		}
		if limit := time.Duration(c.worst) * timeout; took > limit {
			t.Errorf("roster %s took %v, over its documented worst case of %d rounds of --timeout (%v)",
				strings.Join(c.args, " "), took.Round(time.Millisecond), c.worst, limit)
		}
	}
}

// Rule (an interrupt never hides what was sent): SIGINT or SIGTERM (the
// root context cancelled) after the EVENT was sent and before the
// read-back: exit 6, code `interrupted`, the event in `published`, each
// relay's answer in `relays`, the relays it was sent to in
// `details.sent_to`, and `roster repo` to check whether it is in effect;
// the relays do store it.
func TestAnInterruptAfterPublishingReportsTheEventAndItsRelays(t *testing.T) {
	w := clitest.NewMutWorld(t, 2)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w.Seams.AfterPublish = cancel
	args := append([]string{"--repo", clitest.Alice.Naddr(w.Id), "--timeout", "5s", "--home", w.Home["ROSTER_HOME"]}, clitest.RelayArgs(w.Relays)...)
	args = append(args, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json")
	r := clitest.Invocation{Env: clitest.WithKey(w.Home, clitest.Alice), Dir: w.Dir, Now: time.Unix(1000, 0), Seams: w.Seams, Ctx: ctx}.Roster(t, args...)
	m, e := clitest.MutationJSON(t, r)
	if r.Code != cmdutil.ExitUnverified || e == nil || e["code"] != "interrupted" {
		t.Fatalf("exit %d error %v, want 6 interrupted\n%s", r.Code, e, r.Out)
	}
	published := clitest.ToStrings(m["published"])
	if len(published) != 1 {
		t.Fatalf("published %v, want the one event", m["published"])
	}
	for _, rl := range w.Relays {
		if len(rl.Stored(nostr.Filter{IDs: published})) != 1 {
			t.Fatalf("%s does not store %s", rl.URL(), published[0])
		}
	}
	relays, _ := m["relays"].([]any)
	details, _ := e["details"].(map[string]any)
	sent := clitest.ToStrings(details["sent_to"])
	if len(relays) != 2 || len(sent) != 2 || details["phase"] != "reading back" {
		t.Fatalf("relays %v sent_to %v phase %v", relays, sent, details["phase"])
	}
	msg, _ := e["message"].(string)
	if !strings.Contains(msg, published[0]) || !strings.Contains(msg, "may be in effect") {
		t.Fatalf("message %q does not say what was sent", msg)
	}
	cmds := clitest.ToStrings(e["commands"])
	if len(cmds) == 0 || !strings.HasPrefix(cmds[0], "roster repo ") || strings.Contains(cmds[0], "edit") {
		t.Fatalf("commands %v, want the read that checks it first", cmds)
	}
	clitest.CarrySelectors(t, cmds, clitest.Alice.Naddr(w.Id), devrelay.URLs(w.Relays), w.Home["ROSTER_HOME"])

	// The human form says the same on stderr.
	w2 := clitest.NewMutWorld(t, 1)
	w2.Seed(clitest.Alice.Announce(t, w2.Id, 100))
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	args = append([]string{"--repo", clitest.Alice.Naddr(w2.Id), "--home", w2.Home["ROSTER_HOME"]}, clitest.RelayArgs(w2.Relays)...)
	args = append(args, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	r = clitest.Invocation{Env: clitest.WithKey(w2.Home, clitest.Alice), Dir: w2.Dir, Now: time.Unix(1000, 0), Seams: cmdutil.Seams{AfterPublish: cancel2}, Ctx: ctx2}.Roster(t, args...)
	if r.Code != cmdutil.ExitUnverified || !strings.Contains(r.Err, "interrupted") || !strings.Contains(r.Err, "may be in effect") ||
		!strings.Contains(r.Err, "run: roster repo ") || strings.Contains(r.Err, "nothing was published") {
		t.Fatalf("exit %d stderr:\n%s", r.Code, r.Err)
	}
}

// Rule (an interrupt before anything was sent): cancelled between the
// preview and the recheck, a change exits 130 with code `interrupted`,
// says nothing was published, and the relays store nothing new.
func TestAnInterruptBeforePublishingPublishesNothing(t *testing.T) {
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	before := w.StoredCount()
	args := append([]string{"--repo", clitest.Alice.Naddr(w.Id), "--home", w.Home["ROSTER_HOME"]}, clitest.RelayArgs(w.Relays)...)
	args = append(args, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json")
	r := clitest.Invocation{Env: clitest.WithKey(w.Home, clitest.Alice), Dir: w.Dir, Now: time.Unix(1000, 0), Seams: cmdutil.Seams{BeforeRecheck: cancel}, Ctx: ctx}.Roster(t, args...)
	m, e := clitest.MutationJSON(t, r)
	if r.Code != cmdutil.ExitInterrupted || e == nil || e["code"] != "interrupted" || len(clitest.ToStrings(m["published"])) != 0 {
		t.Fatalf("exit %d %v, want 130 interrupted, nothing published\n%s", r.Code, e, r.Out)
	}
	if msg, _ := e["message"].(string); !strings.Contains(msg, "nothing was published") {
		t.Fatalf("message %q", msg)
	}
	if w.StoredCount() != before {
		t.Fatal("an interrupted change stored an event")
	}
}

// Rule (--deadline caps the whole command): a read whose relay holds its
// answer past the deadline (--timeout alone would wait 10 s) stops at the
// deadline with exit 4, code `deadline`, naming the phase reached.
func TestDeadlineStopsAReadWithTheCodeDeadline(t *testing.T) {
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Relays[0].SetSlow(8 * time.Second)
	start := time.Now()
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "health", "--timeout", "10s", "--deadline", "300ms", "--json")
	took := time.Since(start)
	_, e := clitest.MutationJSON(t, r)
	if r.Code != cmdutil.ExitIncomplete || e == nil || e["code"] != "deadline" {
		t.Fatalf("exit %d %v, want 4 deadline\n%s", r.Code, e, r.Out)
	}
	if d, _ := e["details"].(map[string]any); d["phase"] != "discovering" {
		t.Fatalf("details %v, want phase discovering", e["details"])
	}
	if took > 3*time.Second {
		t.Fatalf("took %v with --deadline 300ms", took)
	}
	if r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "--deadline", "-1s"); r.Code != cmdutil.ExitUsage {
		t.Fatalf("--deadline -1s: exit %d", r.Code)
	}
}

// Rule (--deadline never claims nothing was published after an EVENT was
// sent): a write whose read-back is held past the deadline exits 6 with
// code `deadline`, phase "reading back", and the event in `published`.
func TestDeadlineAfterPublishingSaysWhatWasSent(t *testing.T) {
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Relays[0].DelayNext(func(f nostr.Filter) bool { return len(f.IDs) > 0 }, 8*time.Second)
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--timeout", "10s", "--deadline", "2s", "--json")
	m, e := clitest.MutationJSON(t, r)
	if r.Code != cmdutil.ExitUnverified || e == nil || e["code"] != "deadline" {
		t.Fatalf("exit %d %v, want 6 deadline\n%s", r.Code, e, r.Out)
	}
	details, _ := e["details"].(map[string]any)
	if published := clitest.ToStrings(m["published"]); len(published) != 1 || details["phase"] != "reading back" ||
		!slices.Equal(clitest.ToStrings(details["sent_to"]), devrelay.URLs(w.Relays)) {
		t.Fatalf("published %v details %v", m["published"], details)
	}
}
