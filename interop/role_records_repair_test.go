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

// nakSync rebuilds an announcement the way nak's `git sync` republishes
// one: from its own fields (identifier, name, description, clone URLs,
// relays), keeping of the previous event only `web` and `maintainers`. The
// M, m and o role records are gone.
func nakSync(prev *nostr.Event) nostr.Tags {
	var out nostr.Tags
	for _, name := range []string{"d", "name", "description", "clone", "relays", "web", "maintainers"} {
		for _, t := range prev.Tags {
			if len(t) > 0 && t[0] == name {
				out = append(out, slices.Clone(t))
			}
		}
	}
	return out
}

// goNostrToEvent rebuilds it the way go-nostr's (v0.52.3)
// nip34.ParseRepository and Repository.ToEvent do: the fields it parses (d,
// name, description, web, clone, relays, the last `r`, maintainers) written
// back as d, name, description, r <euc> euc, maintainers, web, clone,
// relays. (Written out here: importing nip34 would add go-gitdiff to the
// module for a test.)
func goNostrToEvent(prev *nostr.Event) nostr.Tags {
	var id, name, description, euc string
	var web, clone, relays, maintainers []string
	for _, t := range prev.Tags {
		if len(t) < 2 {
			continue
		}
		switch t[0] {
		case "d":
			id = t[1]
		case "name":
			name = t[1]
		case "description":
			description = t[1]
		case "web":
			web = append(web, t[1:]...)
		case "clone":
			clone = append(clone, t[1:]...)
		case "relays":
			relays = append(relays, t[1:]...)
		case "r":
			euc = t[1]
		case "maintainers":
			maintainers = append(maintainers, t[1:]...)
		}
	}
	out := nostr.Tags{{"d", id}}
	if name != "" {
		out = append(out, nostr.Tag{"name", name})
	}
	if description != "" {
		out = append(out, nostr.Tag{"description", description})
	}
	if euc != "" {
		out = append(out, nostr.Tag{"r", euc, "euc"})
	}
	for _, l := range []struct {
		name string
		vals []string
	}{{"maintainers", maintainers}, {"web", web}, {"clone", clone}, {"relays", relays}} {
		if len(l.vals) > 0 {
			out = append(out, append(nostr.Tag{l.name}, l.vals...))
		}
	}
	return out
}

func roleTags(tags nostr.Tags) []string {
	var out []string
	for _, t := range tags {
		if len(t) > 0 && (t[0] == "M" || t[0] == "m" || t[0] == "o") {
			out = append(out, strings.Join(t, " "))
		}
	}
	slices.Sort(out)
	return out
}

// decode reads a JSON document from stdout (nil when it is not one).
func decode(out string) (map[string]any, error) {
	var m map[string]any
	err := json.Unmarshal([]byte(out), &m)
	return m, err
}

func findingsWith(m map[string]any, key, code string) []map[string]any {
	var out []map[string]any
	list, _ := m[key].([]any)
	for _, f := range list {
		if f, ok := f.(map[string]any); ok && f["code"] == code {
			out = append(out, f)
		}
	}
	return out
}

// A client that rebuilds kind 30617 from its own fields republishes the
// lead's announcement without its role records: `roster repo` and `repo
// health` report it (code, actor, the repair command), `roster repo
// repair` restores the records of the last complete version onto the
// republished announcement, and the graph resolves as before the damage.
// Both ways of damaging it (nak's git sync, go-nostr's ToEvent), on our
// relay and on an independent one.
func TestARepublishWithoutRoleRecordsIsReportedAndRepaired(t *testing.T) {
	t.Parallel()
	for _, s := range setups {
		if s.name == "mixed" {
			continue // the two single-relay setups cover both relays
		}
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			relays := s.relays(t)
			flags := relayFlags(relays)
			checkout := gitCheckout(t)
			aliceHome, bobHome := t.TempDir(), t.TempDir()
			run{Home: aliceHome, Key: alice.sk, Dir: checkout}.ok(t, append([]string{"repo", "init", "--json", "--timeout", "10s"}, flags...)...)
			sel := append([]string{"--repo", alice.naddr("my-repo"), "--timeout", "10s"}, flags...)
			as := func(p person, home string) run { return run{Home: home, Key: p.sk} }
			_, m := as(alice, aliceHome).ok(t, append([]string{"repo", "edit", "--add-maintainer", bob.npub(), "--json"}, sel...)...)
			waitPast(t, m["preview"].(map[string]any)["created_at"].(float64))
			// read repeats a read as p until want holds (a relay that
			// caches identical filters answers from before a write for up
			// to a second).
			read := func(p person, home, what string, args []string, want func(r result, m map[string]any) bool) (result, map[string]any) {
				t.Helper()
				deadline := time.Now().Add(10 * time.Second)
				for {
					r := as(p, home).roster(t, append(append(args, "--json"), sel...)...)
					m, _ := decode(r.Out)
					if want(r, m) {
						return r, m
					}
					if time.Now().After(deadline) {
						t.Fatalf("%s: %s never showed %s (exit %d):\n%s\n%s", s.name, strings.Join(args, " "), what, r.Code, r.Out, r.Err)
					}
					time.Sleep(200 * time.Millisecond)
				}
			}
			read(bob, bobHome, "the invitation", []string{"repo"}, func(_ result, m map[string]any) bool {
				return m != nil && membersOf(t, m) == "map[alice:confirmed bob:invited]"
			})
			acceptOnceVisible(t, s.cachesFilters, as(bob, bobHome), append([]string{"repo", "accept", "--json"}, sel...))
			_, before := read(alice, aliceHome, "bob's acceptance", []string{"repo"}, func(_ result, m map[string]any) bool {
				return m != nil && membersOf(t, m) == "map[alice:confirmed bob:confirmed]"
			})
			want := fmt.Sprint(membersOf(t, before), before["lead_maintainer"], before["lead_source"], statuses(t, before["moderators"]))

			latestOfAlice := func() *nostr.Event {
				t.Helper()
				var latest *nostr.Event
				for _, e := range fetchChecked(t, relays, "", nostr.Filter{Kinds: []int{30617}, Authors: []string{alice.pk}}).Events {
					if evt := e.nostr(); latest == nil || evt.CreatedAt > latest.CreatedAt {
						latest = evt
					}
				}
				return latest
			}
			for _, damage := range []struct {
				client string
				tags   func(*nostr.Event) nostr.Tags
			}{{"nak git sync", nakSync}, {"go-nostr ToEvent", goNostrToEvent}} {
				complete := latestOfAlice()
				if len(roleTags(complete.Tags)) == 0 {
					t.Fatalf("%s: alice's announcement has no role records to lose: %v", damage.client, complete.Tags)
				}
				tags := damage.tags(complete)
				at := max(time.Now().Unix(), int64(complete.CreatedAt)+1)
				var published struct {
					Events []event `json:"events"`
				}
				node(t, "publish", map[string]any{"relays": relays, "events": []map[string]any{{
					"sk": alice.sk, "kind": 30617, "created_at": at, "tags": tags, "content": complete.Content}}}, &published)
				damaged := published.Events[0].nostr()

				// roster repo and repo health report it, with who can
				// act and the command.
				_, rm := read(alice, aliceHome, "the dropped role records", []string{"repo"}, func(_ result, m map[string]any) bool {
					return len(findingsWith(m, "health", "role-records-dropped")) == 1
				})
				hr, hm := read(alice, aliceHome, "the dropped role records", []string{"repo", "health"}, func(r result, m map[string]any) bool {
					return len(findingsWith(m, "findings", "role-records-dropped")) == 1
				})
				for _, f := range append(findingsWith(rm, "health", "role-records-dropped"), findingsWith(hm, "findings", "role-records-dropped")...) {
					if f["actor"] != alice.npub() || f["command"] != "roster repo repair" || f["severity"] != "error" ||
						!strings.Contains(f["message"].(string), alice.npub()+" republished this announcement without its role records, probably with a client that does not keep them") {
						t.Fatalf("%s: finding %v", damage.client, f)
					}
				}
				if hr.Code != 5 {
					t.Fatalf("%s: repo health exit %d, want 5 (an error for the signer)", damage.client, hr.Code)
				}
				// Bob's home verified Alice's complete version when he
				// accepted: he is warned about her announcement.
				_, bm := read(bob, bobHome, "alice's dropped role records", []string{"repo"}, func(_ result, m map[string]any) bool {
					return len(findingsWith(m, "health", "role-records-dropped")) == 1
				})
				if f := findingsWith(bm, "health", "role-records-dropped")[0]; f["severity"] != "warning" || f["actor"] != alice.npub() {
					t.Fatalf("%s: bob's finding %v", damage.client, f)
				}

				// The repair.
				_, pm := as(alice, aliceHome).ok(t, append([]string{"repo", "repair", "--json"}, sel...)...)
				ids, _ := pm["published"].([]any)
				if len(ids) != 1 || pm["verified"] != true {
					t.Fatalf("%s: repair published %v, verified %v", damage.client, pm["published"], pm["verified"])
				}
				_, after := read(alice, aliceHome, "the repaired roster", []string{"repo"}, func(_ result, m map[string]any) bool {
					return m != nil && len(findingsWith(m, "health", "role-records-dropped")) == 0 &&
						fmt.Sprint(membersOf(t, m), m["lead_maintainer"], m["lead_source"], statuses(t, m["moderators"])) == want
				})
				if after["verified"] != nil {
					t.Fatalf("%s: a read is no write: %v", damage.client, after["verified"])
				}
				repaired := latestOfAlice()
				if repaired.ID != ids[0] {
					t.Fatalf("%s: the relays' latest is %s, not the repair %v", damage.client, repaired.ID, ids[0])
				}
				if got, want := roleTags(repaired.Tags), roleTags(complete.Tags); !slices.Equal(got, want) {
					t.Fatalf("%s: role records\n got %v\nwant %v", damage.client, got, want)
				}
				// Every other tag of the republished event, byte for byte.
				for _, tag := range damaged.Tags {
					if tag[0] == "maintainers" {
						continue
					}
					if !slices.ContainsFunc(repaired.Tags, func(x nostr.Tag) bool { return slices.Equal(x, tag) }) {
						t.Fatalf("%s: the repair dropped %v: %v", damage.client, tag, repaired.Tags)
					}
				}
				waitPast(t, float64(repaired.CreatedAt))
			}
		})
	}
}
