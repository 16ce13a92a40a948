package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// mutWorld is an end-to-end membership scene: in-process devrelay relays,
// one environment per invocation with that person's ROSTER_SECRET_KEY, and
// the selected coordinate passed with --repo.
type mutWorld struct {
	t      *testing.T
	relays []*devrelay.Relay
	id     string
	home   map[string]string
	dir    string // a directory outside any Git checkout
	// seams are given to every invocation (a concurrent change between
	// preview and recheck, a relay silenced after publishing).
	seams cmdutil.Seams
}

func newMutWorld(t *testing.T, n int) *mutWorld {
	t.Helper()
	return &mutWorld{t: t, relays: devrelay.StartN(t, n, devrelay.Options{}), id: "my-repo", home: testEnv(t), dir: t.TempDir()}
}

// twoMaintainers: Alice leads, Bob accepted and was acknowledged (one relay).
func twoMaintainers(t *testing.T) *mutWorld {
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	w.ok(bob, alice, 2000, "repo", "accept")
	w.ok(alice, alice, 2100, "repo", "edit", "--acknowledge-maintainer-change", bob.npub())
	return w
}

// bobTookTheLead: after twoMaintainers, Bob declared himself lead (3000) and
// Alice handed the lead to him (4000).
func bobTookTheLead(t *testing.T) *mutWorld {
	w := twoMaintainers(t)
	w.ok(bob, bob, 3000, "repo", "edit", "--lead-maintainer", bob.npub())
	w.ok(alice, alice, 4000, "repo", "edit", "--lead-maintainer", bob.npub())
	return w
}

// seed publishes events to every relay.
func (w *mutWorld) seed(events ...*nostr.Event) {
	w.t.Helper()
	for _, r := range w.relays {
		publish(w.t, r.URL(), events...)
	}
}

// run invokes roster as p at now, selecting sel's coordinate.
func (w *mutWorld) run(p person, sel person, now int64, args ...string) result {
	w.t.Helper()
	// The defaults come first so a test's own --timeout wins.
	// --home is given as a flag (not only ROSTER_HOME) so that every
	// suggested command must carry it too.
	full := append([]string{"--repo", sel.naddr(w.id), "--timeout", "5s", "--home", w.home["ROSTER_HOME"]}, relayArgs(w.relays)...)
	full = append(full, args...)
	return invocation{Env: withKey(w.home, p), Dir: w.dir, Now: time.Unix(now, 0), Seams: w.seams}.roster(w.t, full...)
}

// Selectors is what roster adds to the commands it suggests after a run by
// w.run selecting sel: the same --repo, --relay and --home flags.
func (w *mutWorld) Selectors(sel person) string {
	return " " + strings.Join(append(append([]string{"--repo", sel.naddr(w.id)}, relayArgs(w.relays)...), "--home", w.home["ROSTER_HOME"]), " ")
}

// SelectorsForOthers is what roster adds to a command it suggests for
// another person after a run by w.run selecting sel: the repository and
// relays, not the runner's --home.
func (w *mutWorld) SelectorsForOthers(sel person) string {
	return " " + strings.Join(append([]string{"--repo", sel.naddr(w.id)}, relayArgs(w.relays)...), " ")
}

// carrySelectors checks the rule that a suggested roster command runs as
// printed: each `roster repo` command repeats the user's --repo (unless it
// names another repository), --relay (unless it names its own relay) and
// --home (unless it is for another person, who runs it in their own home);
// other roster commands the flags they use.
func carrySelectors(t *testing.T, cmds []string, repo string, relays []string, home string) {
	t.Helper()
	for _, c := range cmds {
		words := strings.Fields(strings.SplitN(c, "  #", 2)[0])
		if len(words) < 2 || words[0] != "roster" || words[len(words)-1] == "--help" {
			continue
		}
		has := func(flag, value string) bool {
			for i := 0; i+1 < len(words); i++ {
				if words[i] == flag && (value == "" || words[i+1] == value) {
					return true
				}
			}
			return false
		}
		if words[1] == "repo" && !has("--repo", "") {
			t.Errorf("%q lacks --repo %s", c, repo)
		}
		if words[1] == "repo" && has("--repo", "") && !has("--repo", repo) && !strings.Contains(c, "nostr://") && !strings.Contains(c, "<") {
			t.Errorf("%q names another repository than --repo %s", c, repo)
		}
		// A command for another person runs in their own home.
		forOther := strings.Contains(c, "  # run by ")
		if home != "" && !forOther && !has("--home", home) {
			t.Errorf("%q lacks --home %s", c, home)
		}
		if forOther && has("--home", "") {
			t.Errorf("%q, for another person, carries the runner's --home", c)
		}
		readsRelays := words[1] == "repo" || words[1] == "project" || words[1] == "workspace" || words[1] == "group" || words[1] == "hooks"
		if len(relays) > 0 && readsRelays && !has("--relay", "") {
			t.Errorf("%q lacks the --relay flags", c)
		}
	}
}

// ok runs a command that must succeed with --json and returns its result object.
func (w *mutWorld) ok(p, sel person, now int64, args ...string) map[string]any {
	w.t.Helper()
	r := w.run(p, sel, now, append(args, "--json")...)
	if r.Code != cmdutil.ExitOK {
		w.t.Fatalf("roster %s as %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), p.name, r.Code, r.Out, r.Err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		w.t.Fatalf("not JSON: %v\n%s", err, r.Out)
	}
	return m
}

// refused runs a command that must exit with code and the JSON error code.
func (w *mutWorld) refused(p, sel person, now int64, code int, errCode string, args ...string) map[string]any {
	w.t.Helper()
	before := w.storedCount()
	r := w.run(p, sel, now, append(args, "--json")...)
	if r.Code != code {
		w.t.Fatalf("roster %s as %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), p.name, r.Code, code, r.Out, r.Err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		w.t.Fatalf("not JSON: %v\n%s", err, r.Out)
	}
	e, _ := m["error"].(map[string]any)
	if e == nil || e["code"] != errCode {
		w.t.Fatalf("error code %v, want %s:\n%s", e["code"], errCode, r.Out)
	}
	// The --json error object always carries all four fields.
	msg, _ := e["message"].(string)
	_, isMap := e["details"].(map[string]any)
	_, isList := e["commands"].([]any)
	if msg == "" || !isMap || !isList {
		w.t.Fatalf("error object lacks message, details or commands:\n%s", r.Out)
	}
	if after := w.storedCount(); after != before {
		w.t.Fatalf("a refused command stored %d new event(s)", after-before)
	}
	var urls []string
	for _, r := range w.relays {
		urls = append(urls, r.URL())
	}
	carrySelectors(w.t, toStrings(e["commands"]), sel.naddr(w.id), urls, w.home["ROSTER_HOME"])
	return m
}

// storedCount is how many events every relay stores in total.
func (w *mutWorld) storedCount() int {
	n := 0
	for _, r := range w.relays {
		n += len(r.Stored(nostr.Filter{}))
	}
	return n
}

// latest returns p's newest announcement as stored by every relay (they
// must agree) with its d tag removed, rendered with names for pubkeys.
func (w *mutWorld) latest(p person) string {
	w.t.Helper()
	var got string
	for i, r := range w.relays {
		var best *nostr.Event
		for _, e := range r.Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{p.pk}}) {
			if best == nil || graph.Newer(e, best) {
				best = e
			}
		}
		if best == nil {
			w.t.Fatalf("relay %d stores no announcement of %s", i, p.name)
		}
		s := named(tagsWithout(best.Tags, "d", "name"))
		if i > 0 && s != got {
			w.t.Fatalf("relays disagree on %s's announcement:\n%s\n%s", p.name, got, s)
		}
		got = s
	}
	return got
}

// bare is a tag with no value, as ngit writes `clone`, `web` and `relays`
// when it knows none (a first acceptance's own clone servers and relays).
func bare(name string) nostr.Tag { return nostr.Tag{name} }

// wantLatest asserts the exact tags p's stored announcement carries.
func (w *mutWorld) wantLatest(p person, want ...nostr.Tag) {
	w.t.Helper()
	if got, exp := w.latest(p), named(nostr.Tags(want)); got != exp {
		w.t.Fatalf("%s's published tags\n got: %s\nwant: %s", p.name, got, exp)
	}
}

func tagsWithout(tags nostr.Tags, names ...string) nostr.Tags {
	var out nostr.Tags
	for _, t := range tags {
		if len(t) > 0 && !slices.Contains(names, t[0]) {
			out = append(out, t)
		}
	}
	return out
}

var everyone = []person{alice, bob, carol, dave, erin}

// named renders tags as JSON with people's names in place of their keys.
func named(tags nostr.Tags) string {
	b, _ := json.Marshal(tags)
	s := string(b)
	for _, p := range everyone {
		s = strings.ReplaceAll(s, p.pk, p.name)
		s = strings.ReplaceAll(s, p.npub(), "npub:"+p.name)
	}
	return s
}

// projection is the expected `maintainers` tag: graph sorts by pubkey.
func projection(ps ...person) nostr.Tag {
	sorted := slices.Clone(ps)
	slices.SortFunc(sorted, func(a, b person) int { return strings.Compare(a.pk, b.pk) })
	return maintainersTag(sorted...)
}

// members maps name -> status from a result's maintainers.
func members(t *testing.T, m map[string]any) map[string]string {
	out := map[string]string{}
	for npub, st := range memberStatuses(t, m["maintainers"]) {
		for _, p := range everyone {
			if p.npub() == npub {
				out[p.name] = st
			}
		}
	}
	return out
}
