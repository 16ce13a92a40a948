package interop

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// membersOf is the name -> status map of a roster.repo/v2 or
// roster.mutation/v2 document's maintainers.
func membersOf(t testing.TB, m map[string]any) string {
	t.Helper()
	return fmt.Sprint(statuses(t, m["maintainers"]))
}

// waitPast returns once the wall clock has passed the Unix second unix.
func waitPast(t testing.TB, unix float64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for float64(time.Now().Unix()) <= unix {
		if time.Now().After(deadline) {
			t.Fatalf("the clock did not pass %v within 10 s", unix)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// maintainers.md "Normal two-person workflow" with the built binary, each
// step a separate process with that person's key, on our relay, on an
// independent relay (@nostr-relay/core + SQLite) and on one of each: init,
// invite, accept, acknowledge, remove. Afterwards nostr-tools fetches every
// announcement roster published from every relay, verifies it and checks
// the tag grammar, and decodes every npub, naddr and nostr:// URL printed.
func TestTwoPersonWorkflowAgainstEveryRelay(t *testing.T) {
	t.Parallel()
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			relays := s.relays(t)
			flags := relayFlags(relays)
			checkout := gitCheckout(t)
			aliceHome, bobHome := t.TempDir(), t.TempDir()
			as := func(p person, home string) run { return run{Home: home, Key: p.sk, Dir: checkout} }
			var printed []result
			published := map[string]string{} // id -> step
			step := func(name string, r result, m map[string]any) map[string]any {
				t.Helper()
				printed = append(printed, r)
				ids, _ := m["published"].([]any)
				if len(ids) != 1 || m["verified"] != true {
					t.Fatalf("%s: published %v, verified %v\n%s", name, m["published"], m["verified"], r.Out)
				}
				published[ids[0].(string)] = name
				return m
			}

			// 1. Alice announces the checkout.
			r, m := as(alice, aliceHome).ok(t, append([]string{"repo", "init", "--json", "--timeout", "10s"}, flags...)...)
			step("init", r, m)
			if co := m["coordinate"].(map[string]any); co["pubkey"] != alice.pk || co["identifier"] != "my-repo" {
				t.Fatalf("init coordinate %v", co)
			}
			naddr := alice.naddr("my-repo")
			sel := append([]string{"--repo", naddr, "--timeout", "10s"}, flags...)
			repo := func(p person, home string, args ...string) (result, map[string]any) {
				t.Helper()
				return run{Home: home, Key: p.sk}.ok(t, append(append(args, "--json"), sel...)...)
			}

			// 2. Alice invites Bob.
			r, m = repo(alice, aliceHome, "repo", "edit", "--add-maintainer", bob.npub())
			if got := membersOf(t, step("invite", r, m)); got != "map[alice:confirmed bob:invited]" {
				t.Fatalf("after invite: %s", got)
			}
			// The binary reads the real clock: Bob accepts in a later second
			// than the invitation's, so there is an acceptance time for
			// Alice to record (in the same second there would be none).
			waitPast(t, m["preview"].(map[string]any)["created_at"].(float64))
			// settle reads the repository as p until want holds. Our relay
			// answers with the previous step at once. @nostr-relay/core
			// serves an identical REQ from a result cache for up to a
			// second (filterResultCacheTtl, default 1000 ms), so right after
			// a write it may answer with the state before it: there the read
			// is repeated until it shows the write (docs/interop.md).
			settle := func(p person, home, what string, want func(m map[string]any) bool) map[string]any {
				t.Helper()
				deadline := time.Now().Add(10 * time.Second)
				for attempt := 1; ; attempt++ {
					r, m := repo(p, home, "repo")
					if want(m) {
						printed = append(printed, r)
						if attempt > 1 {
							t.Logf("%s: %s visible after %d reads", s.name, what, attempt)
						}
						return m
					}
					if !s.cachesFilters || time.Now().After(deadline) {
						t.Fatalf("%s: read %d does not show %s:\n%s", s.name, attempt, what, r.Out)
					}
					time.Sleep(200 * time.Millisecond)
				}
			}
			// Bob sees the invitation before accepting, as a person would:
			// his accept's own read could otherwise be answered from a
			// relay's result cache filled before the invitation arrived.
			settle(bob, bobHome, "the invitation", func(m map[string]any) bool { return membersOf(t, m) == "map[alice:confirmed bob:invited]" })
			// 3. Bob accepts. A relay that caches identical filters may
			// answer his accept's read with the answer it cached for
			// Alice's change, from before the invitation: roster then
			// refuses (not-invited, nothing published), and Bob retries
			// until the cache has expired.
			r, m = acceptOnceVisible(t, s.cachesFilters, run{Home: bobHome, Key: bob.sk}, append([]string{"repo", "accept", "--json"}, sel...))
			if got := membersOf(t, step("accept", r, m)); got != "map[alice:confirmed bob:confirmed]" {
				t.Fatalf("after accept: %s", got)
			}
			confirmed := func(m map[string]any) bool { return membersOf(t, m) == "map[alice:confirmed bob:confirmed]" }

			// 4. Alice is told to acknowledge (once, in roster repo's
			// pending rows), and does.
			settle(alice, aliceHome, "bob's acceptance", confirmed)
			human := run{Home: aliceHome, Key: alice.sk}.roster(t, append([]string{"repo"}, sel...)...)
			printed = append(printed, human)
			if human.Code != 0 || !strings.Contains(human.Out, "roster repo edit --acknowledge-maintainer-change "+bob.npub()) {
				t.Fatalf("no acknowledgement guidance (exit %d):\n%s\n%s", human.Code, human.Out, human.Err)
			}
			r, m = repo(alice, aliceHome, "repo", "edit", "--acknowledge-maintainer-change", bob.npub())
			step("acknowledge", r, m)
			m = settle(alice, aliceHome, "the acknowledgement", func(m map[string]any) bool {
				acks, _ := m["pending_history_acknowledgements"].([]any)
				return confirmed(m) && len(acks) == 0
			})
			if m["lead_source"] != "explicit" || nameOf(m["lead_maintainer"]) != "alice" {
				t.Fatalf("after acknowledgement: lead %v (%v)", nameOf(m["lead_maintainer"]), m["lead_source"])
			}
			// 5. Alice removes Bob.
			r, m = repo(alice, aliceHome, "repo", "edit", "--remove-maintainer", bob.npub())
			step("remove", r, m)
			if got := membersOf(t, m); got != "map[alice:confirmed]" {
				t.Fatalf("after removal: %s", got)
			}
			settle(bob, bobHome, "the removal", func(m map[string]any) bool { return membersOf(t, m) == "map[alice:confirmed]" })
			printed = append(printed, run{Home: bobHome, Key: bob.sk}.roster(t, append([]string{"repo"}, sel...)...))

			// Every relay holds each person's latest announcement as roster
			// published it, and nostr-tools accepts every event there.
			f := fetchChecked(t, relays, "", nostr.Filter{Authors: []string{alice.pk, bob.pk}})
			latest := map[string]event{}
			for _, e := range f.Events {
				if e.Kind != 30617 {
					t.Errorf("a relay holds kind %d by %s: roster published only announcements here", e.Kind, nameOf(npubOf(e.PubKey)))
					continue
				}
				if _, ok := published[e.ID]; !ok {
					t.Errorf("announcement %s by %s is none of roster's publications", e.ID, nameOf(npubOf(e.PubKey)))
				}
				if prev, ok := latest[e.PubKey]; !ok || e.CreatedAt > prev.CreatedAt {
					latest[e.PubKey] = e
				}
			}
			for _, c := range f.Checks {
				if len(c.Relays) != len(relays) {
					t.Errorf("%s (%s) is on %v, want every relay", c.ID, published[c.ID], c.Relays)
				}
			}
			if published[latest[alice.pk].ID] != "remove" || published[latest[bob.pk].ID] != "accept" {
				t.Errorf("latest announcements: alice %q, bob %q", published[latest[alice.pk].ID], published[latest[bob.pk].ID])
			}
			// Alice's final announcement keeps Bob's interval, ended.
			final := latest[alice.pk]
			i := slices.IndexFunc(final.Tags, func(tag []string) bool { return len(tag) > 1 && tag[0] == "m" && tag[1] == bob.pk })
			if i < 0 || len(final.Tags[i])%2 != 0 {
				t.Errorf("alice's final announcement does not end bob's role: %v", final.Tags)
			}
			decodePrinted(t, "my-repo", printed...)
		})
	}
}

// acceptOnceVisible runs an accept, repeating it while a caching relay
// still answers from before the invitation (exit 3, not-invited) and at
// most for 10 seconds.
func acceptOnceVisible(t *testing.T, caches bool, as run, args []string) (result, map[string]any) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for attempt := 1; ; attempt++ {
		r := as.roster(t, args...)
		if r.Code == 3 && caches && strings.Contains(r.Out, `"not-invited"`) && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		if r.Code != 0 {
			t.Fatalf("roster %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.Code, r.Out, r.Err)
		}
		if attempt > 1 {
			t.Logf("accept succeeded after %d attempts", attempt)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, r.Out)
		}
		return r, m
	}
}
