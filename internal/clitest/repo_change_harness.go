package clitest

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

// MutWorld is an end-to-end membership scene: in-process devrelay relays,
// one environment per invocation with that person's ROSTER_SECRET_KEY, and
// the selected coordinate passed with --repo.
type MutWorld struct {
	T      *testing.T
	Relays []*devrelay.Relay
	Id     string
	Home   map[string]string
	Dir    string // a directory outside any Git checkout
	// Seams are given to every invocation (a concurrent change between
	// preview and recheck, a relay silenced after publishing).
	Seams cmdutil.Seams
}

func NewMutWorld(t *testing.T, n int) *MutWorld {
	t.Helper()
	return &MutWorld{T: t, Relays: devrelay.StartN(t, n, devrelay.Options{}), Id: "my-repo", Home: TestEnv(t), Dir: t.TempDir()}
}

// TwoMaintainers: Alice leads, Bob accepted and was acknowledged (one relay).
func TwoMaintainers(t *testing.T) *MutWorld {
	w := NewMutWorld(t, 1)
	w.Seed(Alice.Announce(t, w.Id, 100))
	w.Ok(Alice, Alice, 1000, "repo", "edit", "--add-maintainer", Bob.Npub())
	w.Ok(Bob, Alice, 2000, "repo", "accept")
	w.Ok(Alice, Alice, 2100, "repo", "edit", "--acknowledge-maintainer-change", Bob.Npub())
	return w
}

// BobTookTheLead: after twoMaintainers, Bob declared himself lead (3000) and
// Alice handed the lead to him (4000).
func BobTookTheLead(t *testing.T) *MutWorld {
	w := TwoMaintainers(t)
	w.Ok(Bob, Bob, 3000, "repo", "edit", "--lead-maintainer", Bob.Npub())
	w.Ok(Alice, Alice, 4000, "repo", "edit", "--lead-maintainer", Bob.Npub())
	return w
}

// Seed publishes events to every relay.
func (w *MutWorld) Seed(events ...*nostr.Event) {
	w.T.Helper()
	for _, r := range w.Relays {
		Publish(w.T, r.URL(), events...)
	}
}

// Run invokes roster as p at now, selecting sel's coordinate.
func (w *MutWorld) Run(p Person, sel Person, now int64, args ...string) Result {
	w.T.Helper()
	// The defaults come first so a test's own --timeout wins.
	// --home is given as a flag (not only ROSTER_HOME) so that every
	// suggested command must carry it too.
	full := append([]string{"--repo", sel.Naddr(w.Id), "--timeout", "5s", "--home", w.Home["ROSTER_HOME"]}, RelayArgs(w.Relays)...)
	full = append(full, args...)
	return Invocation{Env: WithKey(w.Home, p), Dir: w.Dir, Now: time.Unix(now, 0), Seams: w.Seams}.Roster(w.T, full...)
}

// Selectors is what roster adds to the commands it suggests after a run by
// w.run selecting sel: the same --repo, --relay and --home flags.
func (w *MutWorld) Selectors(sel Person) string {
	return " " + strings.Join(append(append([]string{"--repo", sel.Naddr(w.Id)}, RelayArgs(w.Relays)...), "--home", w.Home["ROSTER_HOME"]), " ")
}

// SelectorsForOthers is what roster adds to a command it suggests for
// another person after a run by w.run selecting sel: the repository and
// Relays, not the runner's --home.
func (w *MutWorld) SelectorsForOthers(sel Person) string {
	return " " + strings.Join(append([]string{"--repo", sel.Naddr(w.Id)}, RelayArgs(w.Relays)...), " ")
}

// CarrySelectors checks the rule that a suggested roster command runs as
// printed: each `roster repo` command repeats the user's --repo (unless it
// names another repository), --relay (unless it names its own relay) and
// --home (unless it is for another person, who runs it in their own home);
// other roster commands the flags they use.
func CarrySelectors(t *testing.T, cmds []string, repo string, relays []string, home string) {
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

// Ok runs a command that must succeed with --json and returns its result object.
func (w *MutWorld) Ok(p, sel Person, now int64, args ...string) map[string]any {
	w.T.Helper()
	r := w.Run(p, sel, now, append(args, "--json")...)
	if r.Code != cmdutil.ExitOK {
		w.T.Fatalf("roster %s as %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), p.Name, r.Code, r.Out, r.Err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		w.T.Fatalf("not JSON: %v\n%s", err, r.Out)
	}
	return m
}

// Refused runs a command that must exit with code and the JSON error code.
func (w *MutWorld) Refused(p, sel Person, now int64, code int, errCode string, args ...string) map[string]any {
	w.T.Helper()
	before := w.StoredCount()
	r := w.Run(p, sel, now, append(args, "--json")...)
	if r.Code != code {
		w.T.Fatalf("roster %s as %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), p.Name, r.Code, code, r.Out, r.Err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		w.T.Fatalf("not JSON: %v\n%s", err, r.Out)
	}
	e, _ := m["error"].(map[string]any)
	if e == nil || e["code"] != errCode {
		w.T.Fatalf("error code %v, want %s:\n%s", e["code"], errCode, r.Out)
	}
	// The --json error object always carries all four fields.
	msg, _ := e["message"].(string)
	_, isMap := e["details"].(map[string]any)
	_, isList := e["commands"].([]any)
	if msg == "" || !isMap || !isList {
		w.T.Fatalf("error object lacks message, details or commands:\n%s", r.Out)
	}
	if after := w.StoredCount(); after != before {
		w.T.Fatalf("a refused command stored %d new event(s)", after-before)
	}
	var urls []string
	for _, r := range w.Relays {
		urls = append(urls, r.URL())
	}
	CarrySelectors(w.T, ToStrings(e["commands"]), sel.Naddr(w.Id), urls, w.Home["ROSTER_HOME"])
	return m
}

// StoredCount is how many events every relay stores in total.
func (w *MutWorld) StoredCount() int {
	n := 0
	for _, r := range w.Relays {
		n += len(r.Stored(nostr.Filter{}))
	}
	return n
}

// Latest returns p's newest announcement as stored by every relay (they
// must agree) with its d tag removed, rendered with names for pubkeys.
func (w *MutWorld) Latest(p Person) string {
	w.T.Helper()
	var got string
	for i, r := range w.Relays {
		var best *nostr.Event
		for _, e := range r.Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{p.Pk}}) {
			if best == nil || graph.Newer(e, best) {
				best = e
			}
		}
		if best == nil {
			w.T.Fatalf("relay %d stores no announcement of %s", i, p.Name)
		}
		s := Named(TagsWithout(best.Tags, "d", "name"))
		if i > 0 && s != got {
			w.T.Fatalf("relays disagree on %s's announcement:\n%s\n%s", p.Name, got, s)
		}
		got = s
	}
	return got
}

// Bare is a tag with no value, as ngit writes `clone`, `web` and `relays`
// when it knows none (a first acceptance's own clone servers and relays).
func Bare(name string) nostr.Tag { return nostr.Tag{name} }

// WantLatest asserts the exact tags p's stored announcement carries.
func (w *MutWorld) WantLatest(p Person, want ...nostr.Tag) {
	w.T.Helper()
	if got, exp := w.Latest(p), Named(nostr.Tags(want)); got != exp {
		w.T.Fatalf("%s's published tags\n got: %s\nwant: %s", p.Name, got, exp)
	}
}

func TagsWithout(tags nostr.Tags, names ...string) nostr.Tags {
	var out nostr.Tags
	for _, t := range tags {
		if len(t) > 0 && !slices.Contains(names, t[0]) {
			out = append(out, t)
		}
	}
	return out
}

var Everyone = []Person{Alice, Bob, Carol, Dave, Erin}

// Named renders tags as JSON with people's names in place of their keys.
func Named(tags nostr.Tags) string {
	b, _ := json.Marshal(tags)
	s := string(b)
	for _, p := range Everyone {
		s = strings.ReplaceAll(s, p.Pk, p.Name)
		s = strings.ReplaceAll(s, p.Npub(), "npub:"+p.Name)
	}
	return s
}

// Projection is the expected `maintainers` tag: graph sorts by pubkey.
func Projection(ps ...Person) nostr.Tag {
	sorted := slices.Clone(ps)
	slices.SortFunc(sorted, func(a, b Person) int { return strings.Compare(a.Pk, b.Pk) })
	return MaintainersTag(sorted...)
}

// Members maps name -> status from a result's maintainers.
func Members(t *testing.T, m map[string]any) map[string]string {
	out := map[string]string{}
	for npub, st := range MemberStatuses(t, m["maintainers"]) {
		for _, p := range Everyone {
			if p.Npub() == npub {
				out[p.Name] = st
			}
		}
	}
	return out
}
