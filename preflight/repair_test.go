package preflight

import (
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// damagedWorld: Alice leads with Bob confirmed, then republishes her
// announcement the way a client that keeps only web and maintainers does.
func damagedWorld(t *testing.T, extra ...[]string) (w *world, complete, damaged *nostr.Event) {
	w = &world{t: t}
	tags := append([][]string{{"name", "widgets"}, {"M", "<alice>"}, {"m", "<bob>", "50"}}, extra...)
	tags = append(tags, []string{"maintainers", "<alice>", "<bob>"}, []string{"x-client", "kept", "as is"})
	complete = w.announce("alice", 100, tags...)
	w.announce("bob", 90, []string{"M", "<alice>", "50"}, []string{"m", "<bob>", "50"}, []string{"maintainers", "<alice>", "<bob>"})
	return w, complete, nil
}

func (w *world) replace(old, evt *nostr.Event) {
	i := slices.Index(w.events, old)
	w.events[i] = evt
}

func statuses(r *graph.Resolution) string {
	var out []string
	for _, m := range r.Maintainers {
		out = append(out, aliasText(m.Pubkey)+"="+m.Status)
	}
	for _, m := range r.Moderators {
		out = append(out, aliasText(m.Pubkey)+"=moderator-"+m.Status)
	}
	slices.Sort(out)
	return strings.Join(out, " ") + " lead=" + aliasText(r.Lead)
}

// "previews restoring the role records of the last complete version onto
// the current announcement — every other tag carried byte for byte,
// maintainers regenerated as the projection, no timestamp invented"; the
// graph resolves as before the damage.
func TestRepairRestoresDroppedRoleRecordsOntoTheCurrentAnnouncement(t *testing.T) {
	w, complete, _ := damagedWorld(t)
	before := statuses(w.resolve("alice", 1000))
	nak := w.announce("alice", 200, []string{"name", "widgets 2"}, []string{"web", "https://w.example"},
		[]string{"maintainers", "<alice>", "<bob>"}, []string{"x-client", "kept", "as is"})
	w.replace(complete, nak)
	w.events = w.events[:len(w.events)-1]
	in := Input{Author: pk("alice"), Selected: graph.NewCoordinate(pk("alice"), repoID), Events: w.events, Now: 1000,
		Intent: Intent{Action: ActRepair}, LastComplete: []*nostr.Event{complete}}
	p, r := Prepare(in)
	if r != nil {
		t.Fatalf("refused %s: %s", r.Code, r.Message)
	}
	proj := []string{pk("alice"), pk("bob")}
	slices.Sort(proj)
	wantTags(t, p, []string{"name", "widgets 2"}, []string{"web", "https://w.example"},
		append([]string{"maintainers"}, proj...), []string{"x-client", "kept", "as is"},
		[]string{"M", "<alice>"}, []string{"m", "<bob>", "50"})
	if len(p.Changes) != 2 || p.Changes[0].Action != "restore" || p.Changes[1].Subject != pk("bob") {
		t.Fatalf("changes: %+v", p.Changes)
	}
	if p.CreatedAt != 1000 || p.NotBefore != 201 {
		t.Fatalf("dated by the clock after the current version: %d %d", p.CreatedAt, p.NotBefore)
	}
	if got := statuses(p.After); got != before {
		t.Fatalf("after the repair\n got %s\nwant %s", got, before)
	}
	// The repaired announcement is no damage any more.
	if graph.LostRoleRecords(complete, p.Event()) != nil {
		t.Fatal("the repaired event still lost records")
	}
}

// The projection is recomputed from what the repair restores, whatever the
// republishing client wrote.
func TestRepairRegeneratesTheMaintainersProjection(t *testing.T) {
	w, complete, _ := damagedWorld(t)
	stale := w.announce("alice", 200, []string{"maintainers", "<bob>", "<alice>", "<bob>"}, []string{"maintainers", "<carol>"})
	w.replace(complete, stale)
	w.events = w.events[:len(w.events)-1]
	p, r := Prepare(Input{Author: pk("alice"), Selected: graph.NewCoordinate(pk("alice"), repoID), Events: w.events, Now: 1000,
		Intent: Intent{Action: ActRepair}, LastComplete: []*nostr.Event{complete}})
	if r != nil {
		t.Fatalf("refused %s: %s", r.Code, r.Message)
	}
	ann, err := graph.ParseAnnouncement(p.Event())
	if err != nil || !graph.ProjectionOK(ann) {
		t.Fatalf("projection: %v %s", err, aliasTags(p.Tags))
	}
}

// "publishes ... only when the repair changes nobody's confirmed, invited
// or moderator status relative to the current resolution; otherwise it
// refuses, lists each person whose status would change, and gives the
// one-at-a-time repo edit commands instead."
func TestRepairThatWouldChangeSomebodysStatusIsRefusedWithTheEditCommands(t *testing.T) {
	w, complete, _ := damagedWorld(t, []string{"o", "<dave>", "70"})
	w.announce("dave", 95, []string{"o", "<dave>", "70"})
	nak := w.announce("alice", 200, []string{"maintainers", "<alice>", "<bob>"})
	w.replace(complete, nak)
	w.events = w.events[:len(w.events)-1]
	_, r := Prepare(Input{Author: pk("alice"), Selected: graph.NewCoordinate(pk("alice"), repoID), Events: w.events, Now: 1000,
		Intent: Intent{Action: ActRepair}, LastComplete: []*nostr.Event{complete}})
	if r == nil || r.Code != "repair-changes-status" {
		t.Fatalf("want repair-changes-status, got %+v", r)
	}
	if !strings.Contains(aliasText(r.Message), "<npub:dave>: moderator none -> confirmed") {
		t.Fatalf("message names Dave's change: %s", aliasText(r.Message))
	}
	var cmds []string
	for _, c := range r.Commands {
		cmds = append(cmds, aliasText(c.Line()))
	}
	if !slices.Equal(cmds, []string{"roster repo edit --add-moderator <npub:dave>"}) {
		t.Fatalf("commands: %v", cmds)
	}
}

// Nothing known to restore, or run with other flags: refused.
func TestRepairWithNothingToRestoreOrWithOtherFlagsIsRefused(t *testing.T) {
	w, complete, _ := damagedWorld(t)
	in := Input{Author: pk("alice"), Selected: graph.NewCoordinate(pk("alice"), repoID), Events: w.events, Now: 1000,
		Intent: Intent{Action: ActRepair}}
	if _, r := Prepare(in); r == nil || r.Code != "nothing-to-repair" {
		t.Fatalf("no earlier version: %+v", r)
	}
	in.LastComplete = []*nostr.Event{complete}
	if _, r := Prepare(in); r == nil || r.Code != "nothing-to-repair" {
		t.Fatalf("the complete version is the current one: %+v", r)
	}
	in.Intent.Subject = pk("bob")
	if _, r := Prepare(in); r == nil || !r.Usage {
		t.Fatalf("repair takes no subject: %+v", r)
	}
	// Bob cannot repair Alice's announcement: only his own.
	nak := w.announce("alice", 200, []string{"maintainers", "<alice>", "<bob>"})
	w.replace(complete, nak)
	w.events = w.events[:len(w.events)-1]
	in = Input{Author: pk("bob"), Selected: graph.NewCoordinate(pk("alice"), repoID), Events: w.events, Now: 1000,
		Intent: Intent{Action: ActRepair}, LastComplete: []*nostr.Event{complete}}
	if _, r := Prepare(in); r == nil || r.Code != "nothing-to-repair" {
		t.Fatalf("Bob's own announcement lost nothing: %+v", r)
	}
	if got := (Intent{Action: ActRepair}).Command(); got != "roster repo repair" {
		t.Fatalf("command: %q", got)
	}
}
