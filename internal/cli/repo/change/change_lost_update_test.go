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
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// lostUpdateTrials is how many times each race below is run; the trials of
// one race run five at a time.
const lostUpdateTrials = 20

// racer is one command of a race: who runs it, in which home, and how to
// tell afterwards whether its change is in effect on the relay.
type racer struct {
	name    string
	as      clitest.Person
	home    string
	args    []string
	seams   cmdutil.Seams
	present func(r *devrelay.Relay, id string) bool
	res     clitest.Result
}

// raceOnce runs the racers at once against relay (each selecting Alice's
// id, every clock at 3000 so replacements tie on created_at) and reports
// every command that exited 0 although its change is absent afterwards,
// and every exit other than 0, 3 (refused), 4 stale-relays or
// inconsistent-read (refused before signing) or 6.
func raceOnce(t *testing.T, relay *devrelay.Relay, id string, racers []*racer) []string {
	var wg sync.WaitGroup
	for _, rc := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := append([]string{"--repo", clitest.Alice.Naddr(id), "--timeout", "5s", "--home", rc.home, "--relay", relay.URL()}, rc.args...)
			env := clitest.WithKey(clitest.TestEnv(t), rc.as)
			env["ROSTER_HOME"] = rc.home
			rc.res = clitest.Invocation{Env: env, Dir: t.TempDir(), Now: time.Unix(3000, 0), Seams: rc.seams}.Roster(t, append(args, "--json")...)
		}()
	}
	wg.Wait()
	var bad []string
	for _, rc := range racers {
		code := clitest.ErrorCode(rc.res.Out)
		switch {
		case rc.res.Code == cmdutil.ExitOK:
			if !strings.Contains(rc.res.Out, `"verified": true`) {
				bad = append(bad, fmt.Sprintf("%s %s: exit 0 without verified: true", id, rc.name))
			} else if !rc.present(relay, id) {
				bad = append(bad, fmt.Sprintf("%s: %s exited 0 verified, but its change is absent afterwards (silently lost)", id, rc.name))
			}
		case rc.res.Code == cmdutil.ExitRefused:
			// Refused before signing: concurrent-change, or a preview of
			// the other's edit that refuses (Carol no longer invited).
		case rc.res.Code == cmdutil.ExitIncomplete && (code == "stale-relays" || code == "inconsistent-read"):
			// Refused before signing: the home already verified a newer
			// version than the relay serves, or no consistent cut.
		case rc.res.Code == cmdutil.ExitUnverified && code == "superseded":
			// It names the winner and offers the intent to rerun first
			// (never signed again by itself).
			m, e := clitest.MutationJSON(t, rc.res)
			details, _ := e["details"].(map[string]any)
			won, _ := details["superseded_by"].(map[string]any)
			cmds := clitest.ToStrings(e["commands"])
			if len(won) == 0 || len(cmds) == 0 || !strings.HasPrefix(cmds[0], "roster "+strings.Join(rc.args, " ")) || len(clitest.ToStrings(m["published"])) != 1 {
				bad = append(bad, fmt.Sprintf("%s %s: superseded without the winner, the rerun first or the one event published: %v %v %v", id, rc.name, won, cmds, m["published"]))
			}
		case rc.res.Code == cmdutil.ExitUnverified && code == "unverified":
		default:
			bad = append(bad, fmt.Sprintf("%s %s: exit %d %q, want 0, 3, 4 (refused before signing) or 6\n%s\n%s", id, rc.name, rc.res.Code, code, rc.res.Out, rc.res.Err))
		}
	}
	return bad
}

// raceTrials runs trials of one race five at a time, setting each up with
// setup (which returns its racers), fails on every silent loss and logs
// the outcomes and the time taken.
func raceTrials(t *testing.T, name string, relay *devrelay.Relay, setup func(i int, id string) []*racer) {
	began := time.Now()
	var mu sync.Mutex
	outcomes := map[string]int{}
	var bad []string
	var wg sync.WaitGroup
	sem := make(chan struct{}, 5)
	for i := range lostUpdateTrials {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			id := fmt.Sprintf("%s-%d", name, i)
			racers := setup(i, id)
			b := raceOnce(t, relay, id, racers)
			mu.Lock()
			defer mu.Unlock()
			bad = append(bad, b...)
			for _, rc := range racers {
				outcomes[fmt.Sprintf("%s: exit %d %s", rc.name, rc.res.Code, clitest.ErrorCode(rc.res.Out))]++
			}
		}()
	}
	wg.Wait()
	for _, b := range bad {
		t.Error(b)
	}
	var summary []string
	for k, n := range outcomes {
		summary = append(summary, fmt.Sprintf("%s ×%d", k, n))
	}
	slices.Sort(summary)
	t.Logf("%s: %d trials in %s; %s", name, lostUpdateTrials, time.Since(began).Round(time.Millisecond), strings.Join(summary, "; "))
}

// adds is a racer adding who to Alice's roster as Alice.
func adds(who clitest.Person, home string, sm cmdutil.Seams) *racer {
	return &racer{name: "the add of " + who.Name, as: clitest.Alice, home: home, seams: sm,
		args: []string{"repo", "edit", "--add-maintainer", who.Npub()},
		present: func(r *devrelay.Relay, id string) bool {
			return invites(clitest.LatestAnnouncement(r, clitest.Alice, id), who)
		}}
}

// Rule (no silent lost update across machines; maintainers.md "Concurrent
// membership edits": "Addressable-event last-write-wins must not discard a
// concurrent membership or state action silently"): a relay releases one
// writer's edit inside the other's cut window (devrelay DelayRelease,
// 150 ms and 240 ms, under membership.CutWindow). Alice adds Carol from one
// machine, and the relay holds that EVENT; meanwhile Alice adds Dave from
// another, whose recheck runs while Carol's add is held, so it cannot see
// it. Whichever event wins the created_at tie, no command exits 0 with its
// invitation absent afterwards: the one whose edit was replaced re-reads
// after the cut window and exits 6 `superseded`.
func TestAnEditReleasedInsideTheCutWindowIsNeverSilentlyLost(t *testing.T) {
	t.Parallel()
	for _, hold := range []time.Duration{150 * time.Millisecond, 240 * time.Millisecond} {
		t.Run(hold.String(), func(t *testing.T) {
			t.Parallel()
			relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
			var mu sync.Mutex
			held := map[string]chan struct{}{}
			arrived := func(id string) chan struct{} {
				mu.Lock()
				defer mu.Unlock()
				if held[id] == nil {
					held[id] = make(chan struct{})
				}
				return held[id]
			}
			relay.SetMisbehaviour(devrelay.Misbehaviour{DelayRelease: func(e *nostr.Event) time.Duration {
				if e.PubKey != clitest.Alice.Pk || !invites(e, clitest.Carol) {
					return 0
				}
				ch := arrived(e.Tags.GetD())
				mu.Lock()
				select {
				case <-ch:
				default:
					close(ch)
				}
				mu.Unlock()
				return hold
			}})
			raceTrials(t, "release-"+hold.String(), relay, func(_ int, id string) []*racer {
				clitest.Publish(t, relay.URL(), clitest.Alice.Announce(t, id, 100))
				carols := adds(clitest.Carol, t.TempDir(), cmdutil.Seams{})
				daves := adds(clitest.Dave, t.TempDir(), cmdutil.Seams{BeforeRecheck: func() {
					// Dave's recheck waits for Carol's EVENT to reach the
					// relay (held there), or gives up after 5 s.
					select {
					case <-arrived(id):
					case <-time.After(5 * time.Second):
					}
				}})
				return []*racer{carols, daves}
			})
		})
	}
}

// Rule (no silent lost update within one home, nor between homes of one
// key): three edits by the same key at once (Alice adds Carol, Dave and
// Erin) against one honest relay, their replacements tying on created_at.
// In one home they take turns (the lock per coordinate, held from the
// recheck to the last re-read), so a later one's recheck sees the earlier
// edit; in three homes the re-read after the cut window catches a replaced
// edit. In every trial each exit 0 has its invitation in effect afterwards.
func TestThreeEditsBySameKeyNeverLoseAnExit0Change(t *testing.T) {
	t.Parallel()
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	raceTrials(t, "same-key", relay, func(i int, id string) []*racer {
		clitest.Publish(t, relay.URL(), clitest.Alice.Announce(t, id, 100))
		homes := []string{t.TempDir(), t.TempDir(), t.TempDir()}
		if i%2 == 0 {
			homes[1], homes[2] = homes[0], homes[0] // one home
		}
		return []*racer{adds(clitest.Carol, homes[0], cmdutil.Seams{}), adds(clitest.Dave, homes[1], cmdutil.Seams{}), adds(clitest.Erin, homes[2], cmdutil.Seams{})}
	})
}

// Rule (an acceptance is never reported confirmed while a concurrent
// withdrawal undoes it): Alice invited Carol; now Alice withdraws the
// invitation while Carol accepts it, each on their own machine, against
// one honest relay. A command exiting 0 has its change in effect
// afterwards: Carol's acceptance means Carol is confirmed (Alice still
// invites her and Carol's announcement holds her self-role), Alice's
// withdrawal means Alice's latest announcement no longer invites her.
func TestAWithdrawalRacingAnAcceptanceNeverLeavesAnExit0ChangeUndone(t *testing.T) {
	t.Parallel()
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	raceTrials(t, "withdraw-accept", relay, func(_ int, id string) []*racer {
		clitest.Publish(t, relay.URL(), clitest.Alice.Announce(t, id, 100))
		home := t.TempDir()
		env := clitest.WithKey(clitest.TestEnv(t), clitest.Alice)
		env["ROSTER_HOME"] = home
		inv := clitest.Invocation{Env: env, Dir: t.TempDir(), Now: time.Unix(1000, 0)}
		if r := inv.Roster(t, "--repo", clitest.Alice.Naddr(id), "--relay", relay.URL(), "--home", home, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--json"); r.Code != cmdutil.ExitOK {
			t.Errorf("%s: inviting Carol: exit %d\n%s\n%s", id, r.Code, r.Out, r.Err)
		}
		withdraw := &racer{name: "Alice's withdrawal", as: clitest.Alice, home: home,
			args: []string{"repo", "edit", "--remove-maintainer", clitest.Carol.Npub()},
			present: func(r *devrelay.Relay, id string) bool {
				return !invites(clitest.LatestAnnouncement(r, clitest.Alice, id), clitest.Carol)
			}}
		accept := &racer{name: "Carol's acceptance", as: clitest.Carol, home: t.TempDir(),
			args: []string{"repo", "accept"},
			present: func(r *devrelay.Relay, id string) bool {
				return invites(clitest.LatestAnnouncement(r, clitest.Alice, id), clitest.Carol) && invites(clitest.LatestAnnouncement(r, clitest.Carol, id), clitest.Carol)
			}}
		return []*racer{withdraw, accept}
	})
}
