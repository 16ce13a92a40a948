package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

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
		carol, dave  result
		took         time.Duration
		daveFinished time.Duration // since Carol's recheck began
	}
	ts := make([]*trial, trials)
	for i := range ts {
		ts[i] = &trial{id: fmt.Sprintf("race-%d", i)}
		for _, r := range relays {
			publish(t, r.URL(), alice.announce(t, ts[i].id, 100))
		}
	}
	run := func(id, home string, relays []*devrelay.Relay, sm cmdutil.Seams, add person) result {
		args := append([]string{"--repo", alice.naddr(id), "--timeout", "5s", "--home", home}, relayArgs(relays)...)
		args = append(args, "repo", "edit", "--add-maintainer", add.npub(), "--json")
		env := withKey(testEnv(t), alice)
		env["ROSTER_HOME"] = home
		return invocation{Env: env, Dir: t.TempDir(), Now: time.Unix(3000, 0), Seams: sm}.roster(t, args...)
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
					tr.dave = run(tr.id, homes[i][1], relays[1:], cmdutil.Seams{}, dave)
					tr.daveFinished = time.Since(recheck)
				}()
			}}
			tr.carol = run(tr.id, homes[i][0], relays, sm, carol)
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
			invite person
			r      result
			used   []*devrelay.Relay
		}{{"carol's add", carol, tr.carol, relays}, {"dave's add", dave, tr.dave, relays[1:]}}
		succeeded := 0
		for _, c := range cases {
			code := errorCode(c.r.Out)
			outcomes[fmt.Sprintf("%s: exit %d %s", c.name, c.r.Code, code)]++
			switch c.r.Code {
			case cmdutil.ExitOK:
				succeeded++
				if !strings.Contains(c.r.Out, `"verified": true`) {
					t.Errorf("%s %s: exit 0 without verified: true\n%s", tr.id, c.name, c.r.Out)
				}
				for _, r := range c.used {
					if !invites(latestAnnouncement(r, alice, tr.id), c.invite) {
						t.Errorf("%s: %s exited 0 verified, but %s's latest announcement of Alice has no invitation of %s (the edit was silently lost)",
							tr.id, c.name, r.URL(), c.invite.name)
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

// errorCode is the `error.code` of a --json result ("" when none).
func errorCode(out string) string {
	var m struct {
		Error *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(out), &m) != nil || m.Error == nil {
		return ""
	}
	return m.Error.Code
}

// latestAnnouncement is p's announcement of id that r stores as latest.
func latestAnnouncement(r *devrelay.Relay, p person, id string) *nostr.Event {
	var best *nostr.Event
	for _, e := range r.Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{p.pk}, Tags: nostr.TagMap{"d": {id}}}) {
		if best == nil || graph.Newer(e, best) {
			best = e
		}
	}
	return best
}

// invites reports whether evt carries an active m record for who.
func invites(evt *nostr.Event, who person) bool {
	if evt == nil {
		return false
	}
	for _, t := range evt.Tags {
		if len(t) >= 2 && t[0] == "m" && t[1] == who.pk && len(t)%2 == 1 {
			return true
		}
	}
	return false
}
