package main

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// repoWatchArgs are a watcher's arguments for w's repository (alice's).
func repoWatchArgs(w *clitest.MutWorld, home string, extra ...string) []string {
	args := append([]string{"--repo", clitest.Alice.Naddr(w.Id), "--timeout", "5s", "--home", home}, clitest.RelayArgs(w.Relays)...)
	return append(append(args, "repo", "--watch"), extra...)
}

func maintainerStatus(doc map[string]any, p clitest.Person) string {
	list, _ := doc["maintainers"].([]any)
	for _, m := range list {
		if mm, _ := m.(map[string]any); mm["pubkey"] == p.Pk {
			s, _ := mm["status"].(string)
			return s
		}
	}
	return ""
}

// Rule (--watch): `roster repo --watch --json` prints one roster.repo/v2
// document per line, a new one within a second of an invitation published
// from another home, and nothing for an event that leaves the answer as it
// was (a stranger's announcement under the same identifier).
func TestRepoWatchPrintsAnInvitationAndNothingForAnUnrelatedEvent(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 2)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	home := clitest.TestEnv(t)
	run := clitest.StartWatch(t, home, w.Dir, repoWatchArgs(w, home["ROSTER_HOME"], "--json")...)
	first := run.Docs(1, 10*time.Second)[0]
	if first["schema"] != "roster.repo/v2" || maintainerStatus(first, clitest.Bob) != "" {
		t.Fatalf("first document: %v", first)
	}
	run.Settled(1, w.Relays...)

	// Unrelated: carol announces her own repository under the same
	// identifier; nobody in alice's graph names her. It is delivered live
	// and read again, and the answer is the same: nothing is printed.
	w.Seed(clitest.Carol.Announce(t, w.Id, 500))
	if r := run.AfterLive(1, 5*time.Second); r.Printed {
		t.Fatalf("the re-read after an unrelated event printed a document:\n%s", run.Out.String())
	}
	if n := len(clitest.OutLines(run.Out.String())); n != 1 {
		t.Fatalf("%d documents after an unrelated event, want 1:\n%s", n, run.Out.String())
	}

	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	published := time.Now()
	docs := run.Docs(2, 5*time.Second)
	took := time.Since(published)
	if took > time.Second {
		t.Fatalf("the invitation was printed %v after it was published, want within a second", took)
	}
	if len(docs) != 2 {
		t.Fatalf("%d documents, want the first and the invitation only:\n%s", len(docs), run.Out.String())
	}
	if got := maintainerStatus(docs[1], clitest.Bob); got != "invited" {
		t.Fatalf("second document: bob is %q, want invited (the unrelated event must not print a document)\n%s", got, run.Out.String())
	}
	if code := run.Stop(); code != cmdutil.ExitOK {
		t.Fatalf("interrupted watch: exit %d, want 0\n%s", code, run.Err.String())
	}
	if n := len(clitest.OutLines(run.Out.String())); n != 2 {
		t.Fatalf("%d lines after the interrupt, want 2", n)
	}
}

// Rule (--watch): a relay that drops the connection is reconnected with
// backoff and said on stderr, and a change after it is printed.
func TestRepoWatchReconnectsARelayThatDrops(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	home := clitest.TestEnv(t)
	run := clitest.StartWatch(t, home, w.Dir, repoWatchArgs(w, home["ROSTER_HOME"], "--json")...)
	run.Docs(1, 10*time.Second)
	run.Settled(1, w.Relays...)

	r := w.Relays[0]
	r.Stop()
	clitest.WaitFor(t, "the drop said on stderr", 5*time.Second, func() bool { return strings.Contains(run.Err.String(), "dropped") })
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	clitest.WaitFor(t, "the reconnection said on stderr", 10*time.Second, func() bool {
		return strings.Contains(run.Err.String(), "reconnected") && r.OpenSubscriptions() == 1
	})
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	docs := run.Docs(2, 5*time.Second)
	if got := maintainerStatus(docs[len(docs)-1], clitest.Bob); got != "invited" {
		t.Fatalf("after the reconnection: bob is %q, want invited\n%s", got, run.Out.String())
	}
	for _, l := range strings.Split(strings.TrimSpace(run.Err.String()), "\n") {
		if !strings.HasPrefix(l, "roster: watch: relay "+r.URL()) {
			t.Fatalf("stderr line %q does not name the relay", l)
		}
	}
}

// Rule (--watch): Ctrl-C ends a watch with exit 0: the real process,
// sent SIGINT while it follows, exits 0 having printed whole documents.
func TestRepoWatchEndsWithExit0OnSIGINT(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	home := clitest.TestEnv(t)
	p := clitest.WatchProcess(t, home, w.Dir, repoWatchArgs(w, home["ROSTER_HOME"], "--json")...)
	clitest.WaitFor(t, "the watch's subscription", 10*time.Second, func() bool { return w.Relays[0].OpenSubscriptions() == 1 })
	clitest.WaitFor(t, "the first document", 10*time.Second, func() bool { return strings.HasSuffix(p.Out.String(), "}\n") })
	if err := p.Cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	code := p.Wait()
	if code != cmdutil.ExitOK {
		t.Fatalf("SIGINT: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, p.Out.String(), p.Err.String())
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("the watch took %v to end after SIGINT", took)
	}
	if lines := clitest.OutLines(p.Out.String()); len(lines) != 1 || !strings.HasPrefix(lines[0], `{"schema":"roster.repo/v2"`) {
		t.Fatalf("stdout after SIGINT:\n%s", p.Out.String())
	}
	clitest.WaitFor(t, "the relay to see the subscription closed", 5*time.Second, func() bool { return w.Relays[0].OpenSubscriptions() == 0 })
}

// Rule (--watch): without --json the repository is printed again, under a
// line saying when it changed, when the answer changes.
func TestRepoWatchReprintsTheHumanView(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	home := clitest.TestEnv(t)
	run := clitest.StartWatch(t, home, w.Dir, repoWatchArgs(w, home["ROSTER_HOME"])...)
	clitest.WaitFor(t, "the first view", 10*time.Second, func() bool { return strings.Contains(run.Out.String(), "lead") })
	run.Settled(1, w.Relays...)
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	clitest.WaitFor(t, "the view printed again", 5*time.Second, func() bool { return strings.Contains(run.Out.String(), "--- changed at ") })
	_, after, _ := strings.Cut(run.Out.String(), "--- changed at ")
	clitest.WaitFor(t, "the whole second view", 5*time.Second, func() bool {
		_, after, _ = strings.Cut(run.Out.String(), "--- changed at ")
		return strings.Contains(after, "complete ")
	})
	if !strings.Contains(after, clitest.Bob.Npub()) || !strings.Contains(after, "invited") {
		t.Fatalf("the view printed again does not show the invitation:\n%s", run.Out.String())
	}
}

// Rule (--watch): --jq and --json-fields select from each document, one
// result per line.
func TestRepoWatchSelectsWithJQAndJSONFields(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	home := clitest.TestEnv(t)
	jq := clitest.StartWatch(t, home, w.Dir, repoWatchArgs(w, home["ROSTER_HOME"], "--jq", "[.maintainers[].status] | sort | join(\",\")")...)
	fields := clitest.StartWatch(t, clitest.TestEnv(t), w.Dir, repoWatchArgs(w, home["ROSTER_HOME"], "--json-fields", "maintainers")...)
	clitest.WaitFor(t, "both first answers", 10*time.Second, func() bool {
		return len(clitest.OutLines(jq.Out.String())) == 1 && len(clitest.OutLines(fields.Out.String())) == 1
	})
	jq.Settled(1, w.Relays...)
	fields.Settled(1, w.Relays...)
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	clitest.WaitFor(t, "both second answers", 5*time.Second, func() bool {
		return len(clitest.OutLines(jq.Out.String())) == 2 && len(clitest.OutLines(fields.Out.String())) == 2
	})
	if got := clitest.OutLines(jq.Out.String()); got[0] != "confirmed" || got[1] != "confirmed,invited" {
		t.Fatalf("--jq lines %q", got)
	}
	docs := fields.Docs(2, time.Second)
	if len(docs[1]) != 1 || maintainerStatus(docs[1], clitest.Bob) != "invited" {
		t.Fatalf("--json-fields maintainers: %v", docs[1])
	}
}

// Rule (--watch): --offline asks no relay, so there is nothing to follow:
// a usage error, as is --watch with group show --me.
func TestWatchWithNothingToFollowIsAUsageError(t *testing.T) {
	t.Parallel()
	home := clitest.TestEnv(t)
	r := clitest.Invocation{Env: home}.Roster(t, "repo", "--watch", "--offline", "--repo", clitest.Alice.Naddr("x"))
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "--offline") {
		t.Fatalf("repo --watch --offline: exit %d %s", r.Code, r.Err)
	}
	r = clitest.Invocation{Env: home}.Roster(t, "group", "show", "x", "--watch", "--me", "--relay", "ws://127.0.0.1:1")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "--me") {
		t.Fatalf("group show --watch --me: exit %d %s", r.Code, r.Err)
	}
}

// Rule (--watch): --deadline ends a watch as an interrupt does, exit 0
// after the answers printed.
func TestRepoWatchEndsWithExit0AtItsDeadline(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	home := clitest.TestEnv(t)
	start := time.Now()
	r := clitest.Invocation{Env: home, Dir: w.Dir}.Roster(t, repoWatchArgs(w, home["ROSTER_HOME"], "--json", "--deadline", "700ms")...)
	if r.Code != cmdutil.ExitOK || len(clitest.OutLines(r.Out)) != 1 {
		t.Fatalf("exit %d after %v\nstdout:\n%s\nstderr:\n%s", r.Code, time.Since(start), r.Out, r.Err)
	}
	if took := time.Since(start); took < 700*time.Millisecond || took > 5*time.Second {
		t.Fatalf("the watch ended after %v, want its deadline of 700ms", took)
	}
}

// Rule (docs/PERFORMANCE.md, round trips): a watch holds one subscription
// per relay, sent with "limit": 0, and a change that reaches nobody new
// costs the read again, warm: one REQ.
func TestRepoWatchRoundTrips(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	home := clitest.TestEnv(t)
	run := clitest.StartWatch(t, home, w.Dir, repoWatchArgs(w, home["ROSTER_HOME"], "--json")...)
	run.Docs(1, 10*time.Second)
	settled := run.Settled(1, w.Relays...)
	r := w.Relays[0]
	before := r.ReqCount()
	live := 0
	for _, req := range r.Requests() {
		if len(req) > 0 && req[0].LimitZero {
			live++
			for _, f := range req {
				if !f.LimitZero {
					t.Fatalf("a live subscription's filter asks for stored events: %v", req)
				}
			}
		}
	}
	if live != 1 {
		t.Fatalf("%d live subscriptions sent, want 1", live)
	}
	// Alice names herself lead: the answer changes (lead_source), the people
	// followed do not.
	w.Seed(clitest.Alice.Announce(t, w.Id, 200, clitest.Role("M", clitest.Alice)))
	docs := run.Docs(2, 5*time.Second)
	if docs[1]["lead_source"] == docs[0]["lead_source"] {
		t.Fatalf("the change was not printed: %v", docs[1]["lead_source"])
	}
	clitest.WaitFor(t, "the re-read's end", 5*time.Second, func() bool { return len(run.Resolutions()) > settled })
	if got := r.ReqCount() - before; got != 1 {
		t.Fatalf("%d REQs for one change, want 1 (the read again, warm)", got)
	}
}

// Rule (--watch, human): the view is printed again when only what the human
// view shows changes (the announcement's description), though roster.repo/v2
// does not carry it.
func TestRepoWatchReprintsAMetadataChange(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	home := clitest.TestEnv(t)
	run := clitest.StartWatch(t, home, w.Dir, repoWatchArgs(w, home["ROSTER_HOME"])...)
	clitest.WaitFor(t, "the first view", 10*time.Second, func() bool { return strings.Contains(run.Out.String(), "complete ") })
	run.Settled(1, w.Relays...)
	w.Seed(clitest.Alice.Announce(t, w.Id, 200, nostr.Tag{"description", "now described"}))
	clitest.WaitFor(t, "the view printed again", 5*time.Second, func() bool {
		_, after, ok := strings.Cut(run.Out.String(), "--- changed at ")
		return ok && strings.Contains(after, "now described")
	})
}
