package change_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// raceDelay is how long relay 1 holds Alice's first command's recheck: long
// against the recheck's cut window (membership.CutWindow, 250ms), like the
// audit's relay that took 3s.
const raceDelay = 500 * time.Millisecond

// Rule (two concurrent membership edits never both report success with one
// of them gone; maintainers.md "Concurrent membership edits":
// "Addressable-event last-write-wins must not discard a concurrent
// membership or state action silently"). Alice adds Carol on relays 1 and 2
// while relay 1 holds its answer to her recheck; meanwhile Alice, in
// another home, adds Dave on relay 2 alone. Both commands read the same
// clock second, so their replacements tie on created_at. Whatever the
// interleaving, a command that exits 0 with `verified: true` has its
// invitation in the latest announcement of every relay it used, and the
// other exits 3 (its recheck saw the other edit) or 6 (its publish lost),
// never 0.
func TestConcurrentEditsNeverBothSucceedWithOneInvitationLost(t *testing.T) {
	const trials = 20
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	type trial struct {
		id           string
		carol, dave  clitest.Result
		took         time.Duration
		daveFinished time.Duration // since Carol's recheck began
	}
	ts := make([]*trial, trials)
	for i := range ts {
		ts[i] = &trial{id: fmt.Sprintf("race-%d", i)}
		for _, r := range relays {
			clitest.Publish(t, r.URL(), clitest.Alice.Announce(t, ts[i].id, 100))
		}
	}
	run := func(id, home string, relays []*devrelay.Relay, sm cmdutil.Seams, add clitest.Person) clitest.Result {
		args := append([]string{"--repo", clitest.Alice.Naddr(id), "--timeout", "5s", "--home", home}, clitest.RelayArgs(relays)...)
		args = append(args, "repo", "edit", "--add-maintainer", add.Npub(), "--json")
		env := clitest.WithKey(clitest.TestEnv(t), clitest.Alice)
		env["ROSTER_HOME"] = home
		return clitest.Invocation{Env: env, Dir: t.TempDir(), Now: time.Unix(3000, 0), Seams: sm}.Roster(t, args...)
	}
	homes := make([][2]string, trials)
	for i := range homes {
		homes[i] = [2]string{t.TempDir(), t.TempDir()}
	}
	began := time.Now()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 5)
	for i, tr := range ts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			start := time.Now()
			recheckOf := func(f nostr.Filter) bool {
				return slices.Contains(f.Kinds, graph.KindAnnouncement) && slices.Contains(f.Tags["d"], tr.id)
			}
			daveDone := make(chan struct{})
			var recheck time.Time
			sm := cmdutil.Seams{BeforeRecheck: func() {
				recheck = time.Now()
				relays[0].DelayNext(recheckOf, raceDelay)
				go func() {
					defer close(daveDone)
					tr.dave = run(tr.id, homes[i][1], relays[1:], cmdutil.Seams{}, clitest.Dave)
					tr.daveFinished = time.Since(recheck)
				}()
			}}
			tr.carol = run(tr.id, homes[i][0], relays, sm, clitest.Carol)
			if recheck.IsZero() {
				close(daveDone) // Carol's command stopped before its recheck
			}
			<-daveDone
			tr.took = time.Since(start)
		}()
	}
	wg.Wait()
	t.Logf("%d trials in %s", trials, time.Since(began).Round(time.Millisecond))

	outcomes := map[string]int{}
	for _, tr := range ts {
		cases := []struct {
			name   string
			invite clitest.Person
			r      clitest.Result
			used   []*devrelay.Relay
		}{{"carol's add", clitest.Carol, tr.carol, relays}, {"dave's add", clitest.Dave, tr.dave, relays[1:]}}
		succeeded := 0
		for _, c := range cases {
			code := clitest.ErrorCode(c.r.Out)
			outcomes[fmt.Sprintf("%s: exit %d %s", c.name, c.r.Code, code)]++
			switch c.r.Code {
			case cmdutil.ExitOK:
				succeeded++
				if !strings.Contains(c.r.Out, `"verified": true`) {
					t.Errorf("%s %s: exit 0 without verified: true\n%s", tr.id, c.name, c.r.Out)
				}
				for _, r := range c.used {
					if !invites(clitest.LatestAnnouncement(r, clitest.Alice, tr.id), c.invite) {
						t.Errorf("%s: %s exited 0 verified, but %s's latest announcement of Alice has no invitation of %s (the edit was silently lost)",
							tr.id, c.name, r.URL(), c.invite.Name)
					}
				}
			case cmdutil.ExitRefused:
				if code != "concurrent-change" {
					t.Errorf("%s %s: exit 3 with %q, want concurrent-change\n%s", tr.id, c.name, code, c.r.Out)
				}
			case cmdutil.ExitUnverified:
				if code != "superseded" && code != "unverified" {
					t.Errorf("%s %s: exit 6 with %q\n%s", tr.id, c.name, code, c.r.Out)
				}
			default:
				t.Errorf("%s %s: exit %d, want 0, 3 or 6\n%s\n%s", tr.id, c.name, c.r.Code, c.r.Out, c.r.Err)
			}
		}
		if succeeded == 0 {
			t.Errorf("%s: neither edit succeeded:\n%s\n%s", tr.id, tr.carol.Out, tr.dave.Out)
		}
	}
	var summary []string
	for k, n := range outcomes {
		summary = append(summary, fmt.Sprintf("%s ×%d", k, n))
	}
	slices.Sort(summary)
	t.Logf("outcomes: %s; dave's add finished %s after carol's recheck began (trial 0)", strings.Join(summary, "; "), ts[0].daveFinished.Round(time.Millisecond))
}

// invites reports whether evt carries an active m record for who.
func invites(evt *nostr.Event, who clitest.Person) bool {
	if evt == nil {
		return false
	}
	for _, t := range evt.Tags {
		if len(t) >= 2 && t[0] == "m" && t[1] == who.Pk && len(t)%2 == 1 {
			return true
		}
	}
	return false
}
