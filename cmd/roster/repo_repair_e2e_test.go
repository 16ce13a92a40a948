package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// latestEvent is p's newest announcement on the first relay.
func (w *mutWorld) latestEvent(p person) *nostr.Event {
	w.t.Helper()
	var best *nostr.Event
	for _, e := range w.relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{p.pk}}) {
		if best == nil || graph.Newer(e, best) {
			best = e
		}
	}
	if best == nil {
		w.t.Fatalf("no announcement of %s", p.name)
	}
	return best
}

// republishWithoutRoles signs p's announcement again at created the way
// nak's `git sync` does: its own fields, and of the previous event only
// `web` and `maintainers`.
func (w *mutWorld) republishWithoutRoles(p person, created int64) (complete, damaged *nostr.Event) {
	w.t.Helper()
	complete = w.latestEvent(p)
	var tags nostr.Tags
	for _, t := range complete.Tags {
		switch t[0] {
		case "d", "name", "description", "clone", "relays", "web", "maintainers":
			tags = append(tags, t)
		}
	}
	tags = append(tags, nostr.Tag{"web", "https://example.invalid/widgets"})
	damaged = p.sign(w.t, graph.KindAnnouncement, created, tags...)
	w.seed(damaged)
	return complete, damaged
}

func findingsOf(v any, code string) []map[string]any {
	var out []map[string]any
	list, _ := v.([]any)
	for _, f := range list {
		if f, ok := f.(map[string]any); ok && f["code"] == code {
			out = append(out, f)
		}
	}
	return out
}

func sortedRoles(tags nostr.Tags) []string {
	var out []string
	for _, t := range tags {
		if graph.IsRoleLetter(t[0]) {
			out = append(out, strings.Join(t, " "))
		}
	}
	slices.Sort(out)
	return out
}

// A nak-style republish is detected by `repo health` (and `roster repo`)
// and undone by `roster repo repair`: the repaired announcement carries
// every tag of the republished one and the role records of the last
// complete one, and the graph resolves as before the damage.
func TestANakStyleRepublishIsReportedByHealthAndUndoneByRepair(t *testing.T) {
	t.Parallel()
	w := twoMaintainers(t)
	before := w.ok(alice, alice, 2200, "repo")
	complete, damaged := w.republishWithoutRoles(alice, 2300)

	h := w.run(alice, alice, 2400, "repo", "health", "--json")
	if h.Code != cmdutil.ExitUnhealthy {
		t.Fatalf("health exit %d, want %d:\n%s\n%s", h.Code, cmdutil.ExitUnhealthy, h.Out, h.Err)
	}
	var hm map[string]any
	decodeJSON(t, h, &hm)
	fs := findingsOf(hm["findings"], graph.CodeRoleRecordsDropped)
	if len(fs) != 1 || fs[0]["actor"] != alice.npub() || fs[0]["severity"] != "error" || fs[0]["author"] != alice.npub() ||
		!strings.HasPrefix(fs[0]["command"].(string), "roster repo repair") ||
		!strings.HasPrefix(fs[0]["message"].(string), alice.npub()+" republished this announcement without its role records, probably with a client that does not keep them") {
		t.Fatalf("finding: %v", hm["findings"])
	}
	// Human: the person's name, and the repair command.
	hh := w.run(alice, alice, 2400, "repo", "health")
	if !strings.Contains(hh.Out, "role-records-dropped") || !strings.Contains(hh.Out, "roster repo repair") {
		t.Fatalf("human health:\n%s", hh.Out)
	}
	// Bob is warned about Alice's announcement in roster repo.
	bm := w.ok(bob, alice, 2400, "repo")
	if fs := findingsOf(bm["health"], graph.CodeRoleRecordsDropped); len(fs) != 1 || fs[0]["severity"] != "warning" || fs[0]["actor"] != alice.npub() {
		t.Fatalf("bob's view: %v", bm["health"])
	}
	// Bob cannot repair Alice's announcement: only his own.
	w.refused(bob, alice, 2450, cmdutil.ExitRefused, "nothing-to-repair", "repo", "repair")

	dry := w.ok(alice, alice, 2500, "repo", "repair", "--dry-run")
	if dry["action"] != "repair" || dry["dry_run"] != true || len(dry["published"].([]any)) != 0 {
		t.Fatalf("dry run: %v %v %v", dry["action"], dry["dry_run"], dry["published"])
	}
	hd := w.run(alice, alice, 2500, "repo", "repair", "--dry-run")
	if hd.Code != 0 || !strings.HasPrefix(hd.Out, "target repository: ") || !strings.Contains(hd.Out, "restores your own lead record") ||
		!strings.Contains(hd.Out, "nothing was published") {
		t.Fatalf("human dry run (exit %d):\n%s\n%s", hd.Code, hd.Out, hd.Err)
	}
	m := w.ok(alice, alice, 2600, "repo", "repair")
	if len(m["published"].([]any)) != 1 || m["verified"] != true {
		t.Fatalf("repair: published %v verified %v", m["published"], m["verified"])
	}
	repaired := w.latestEvent(alice)
	if got, want := sortedRoles(repaired.Tags), sortedRoles(complete.Tags); !slices.Equal(got, want) {
		t.Fatalf("role records\n got %v\nwant %v", got, want)
	}
	for _, tag := range damaged.Tags {
		if tag[0] != "maintainers" && !slices.ContainsFunc(repaired.Tags, func(x nostr.Tag) bool { return slices.Equal(x, tag) }) {
			t.Fatalf("the repair dropped %v: %v", tag, repaired.Tags)
		}
	}
	after := w.ok(alice, alice, 2700, "repo")
	for _, k := range []string{"maintainers", "moderators", "lead_maintainer", "lead_source", "lead_path"} {
		if !jsonEqual(after[k], before[k]) {
			t.Fatalf("%s after the repair %v, before the damage %v", k, after[k], before[k])
		}
	}
	if fs := findingsOf(after["health"], graph.CodeRoleRecordsDropped); len(fs) != 0 {
		t.Fatalf("still reported: %v", fs)
	}
	// A second repair has nothing to restore.
	w.refused(alice, alice, 2800, cmdutil.ExitRefused, "nothing-to-repair", "repo", "repair")
}

// A repair that would change somebody's status is refused with the
// one-at-a-time repo edit commands, and publishes nothing.
func TestARepairThatWouldChangeSomebodysStatusIsRefusedWithTheEditCommands(t *testing.T) {
	t.Parallel()
	w := twoMaintainers(t)
	w.ok(alice, alice, 2200, "repo", "edit", "--add-moderator", dave.npub())
	w.ok(dave, alice, 2300, "repo", "accept", "--moderator")
	before := w.ok(alice, alice, 2400, "repo")
	if memberStatuses(t, before["moderators"])[dave.npub()] != "confirmed" {
		t.Fatalf("dave is a moderator: %v", before["moderators"])
	}
	w.republishWithoutRoles(alice, 2500)
	m := w.refused(alice, alice, 2600, cmdutil.ExitRefused, "repair-changes-status", "repo", "repair")
	e := m["error"].(map[string]any)
	cmds := toStrings(e["commands"])
	if len(cmds) == 0 || !strings.HasPrefix(cmds[0], "roster repo edit --add-moderator "+dave.npub()) {
		t.Fatalf("commands: %v", cmds)
	}
	if !strings.Contains(e["message"].(string), dave.npub()+": moderator none -> confirmed") {
		t.Fatalf("message: %s", e["message"])
	}
	// Human: the same list, nothing published.
	r := w.run(alice, alice, 2600, "repo", "repair")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, "moderator none -> confirmed") || !strings.Contains(r.Err, "nothing was published") {
		t.Fatalf("human refusal (exit %d):\n%s", r.Code, r.Err)
	}
}
