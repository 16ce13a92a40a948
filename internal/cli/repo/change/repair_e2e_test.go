package change_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

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
	w := clitest.TwoMaintainers(t)
	before := w.Ok(clitest.Alice, clitest.Alice, 2200, "repo")
	complete, damaged := w.RepublishWithoutRoles(clitest.Alice, 2300)

	h := w.Run(clitest.Alice, clitest.Alice, 2400, "repo", "health", "--json")
	if h.Code != cmdutil.ExitUnhealthy {
		t.Fatalf("health exit %d, want %d:\n%s\n%s", h.Code, cmdutil.ExitUnhealthy, h.Out, h.Err)
	}
	var hm map[string]any
	clitest.DecodeJSON(t, h, &hm)
	fs := findingsOf(hm["findings"], graph.CodeRoleRecordsDropped)
	if len(fs) != 1 || fs[0]["actor"] != clitest.Alice.Npub() || fs[0]["severity"] != "error" || fs[0]["author"] != clitest.Alice.Npub() ||
		!strings.HasPrefix(fs[0]["command"].(string), "roster repo repair") ||
		!strings.HasPrefix(fs[0]["message"].(string), clitest.Alice.Npub()+" republished this announcement without its role records, probably with a client that does not keep them") {
		t.Fatalf("finding: %v", hm["findings"])
	}
	// Human: the person's name, and the repair command.
	hh := w.Run(clitest.Alice, clitest.Alice, 2400, "repo", "health")
	if !strings.Contains(hh.Out, "role-records-dropped") || !strings.Contains(hh.Out, "roster repo repair") {
		t.Fatalf("human health:\n%s", hh.Out)
	}
	// Bob is warned about Alice's announcement in roster repo.
	bm := w.Ok(clitest.Bob, clitest.Alice, 2400, "repo")
	if fs := findingsOf(bm["health"], graph.CodeRoleRecordsDropped); len(fs) != 1 || fs[0]["severity"] != "warning" || fs[0]["actor"] != clitest.Alice.Npub() {
		t.Fatalf("bob's view: %v", bm["health"])
	}
	// Bob cannot repair Alice's announcement: only his own.
	w.Refused(clitest.Bob, clitest.Alice, 2450, cmdutil.ExitRefused, "nothing-to-repair", "repo", "repair")

	dry := w.Ok(clitest.Alice, clitest.Alice, 2500, "repo", "repair", "--dry-run")
	if dry["action"] != "repair" || dry["dry_run"] != true || len(dry["published"].([]any)) != 0 {
		t.Fatalf("dry run: %v %v %v", dry["action"], dry["dry_run"], dry["published"])
	}
	hd := w.Run(clitest.Alice, clitest.Alice, 2500, "repo", "repair", "--dry-run")
	if hd.Code != 0 || !strings.HasPrefix(hd.Out, "target repository: ") || !strings.Contains(hd.Out, "restores your own lead record") ||
		!strings.Contains(hd.Out, "nothing was published") {
		t.Fatalf("human dry run (exit %d):\n%s\n%s", hd.Code, hd.Out, hd.Err)
	}
	m := w.Ok(clitest.Alice, clitest.Alice, 2600, "repo", "repair")
	if len(m["published"].([]any)) != 1 || m["verified"] != true {
		t.Fatalf("repair: published %v verified %v", m["published"], m["verified"])
	}
	repaired := w.LatestEvent(clitest.Alice)
	if got, want := sortedRoles(repaired.Tags), sortedRoles(complete.Tags); !slices.Equal(got, want) {
		t.Fatalf("role records\n got %v\nwant %v", got, want)
	}
	for _, tag := range damaged.Tags {
		if tag[0] != "maintainers" && !slices.ContainsFunc(repaired.Tags, func(x nostr.Tag) bool { return slices.Equal(x, tag) }) {
			t.Fatalf("the repair dropped %v: %v", tag, repaired.Tags)
		}
	}
	after := w.Ok(clitest.Alice, clitest.Alice, 2700, "repo")
	for _, k := range []string{"maintainers", "moderators", "lead_maintainer", "lead_source", "lead_path"} {
		if !clitest.JsonEqual(after[k], before[k]) {
			t.Fatalf("%s after the repair %v, before the damage %v", k, after[k], before[k])
		}
	}
	if fs := findingsOf(after["health"], graph.CodeRoleRecordsDropped); len(fs) != 0 {
		t.Fatalf("still reported: %v", fs)
	}
	// A second repair has nothing to restore.
	w.Refused(clitest.Alice, clitest.Alice, 2800, cmdutil.ExitRefused, "nothing-to-repair", "repo", "repair")
}

// A repair that would change somebody's status is refused with the
// one-at-a-time repo edit commands, and publishes nothing.
func TestARepairThatWouldChangeSomebodysStatusIsRefusedWithTheEditCommands(t *testing.T) {
	t.Parallel()
	w := clitest.TwoMaintainers(t)
	w.Ok(clitest.Alice, clitest.Alice, 2200, "repo", "edit", "--add-moderator", clitest.Dave.Npub())
	w.Ok(clitest.Dave, clitest.Alice, 2300, "repo", "accept", "--moderator")
	before := w.Ok(clitest.Alice, clitest.Alice, 2400, "repo")
	if clitest.MemberStatuses(t, before["moderators"])[clitest.Dave.Npub()] != "confirmed" {
		t.Fatalf("dave is a moderator: %v", before["moderators"])
	}
	w.RepublishWithoutRoles(clitest.Alice, 2500)
	m := w.Refused(clitest.Alice, clitest.Alice, 2600, cmdutil.ExitRefused, "repair-changes-status", "repo", "repair")
	e := m["error"].(map[string]any)
	cmds := clitest.ToStrings(e["commands"])
	if len(cmds) == 0 || !strings.HasPrefix(cmds[0], "roster repo edit --add-moderator "+clitest.Dave.Npub()) {
		t.Fatalf("commands: %v", cmds)
	}
	if !strings.Contains(e["message"].(string), clitest.Dave.Npub()+": moderator none -> confirmed") {
		t.Fatalf("message: %s", e["message"])
	}
	// Human: the same list, nothing published.
	r := w.Run(clitest.Alice, clitest.Alice, 2600, "repo", "repair")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, "moderator none -> confirmed") || !strings.Contains(r.Err, "nothing was published") {
		t.Fatalf("human refusal (exit %d):\n%s", r.Code, r.Err)
	}
}
