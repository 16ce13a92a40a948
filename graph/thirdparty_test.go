package graph

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/suggest"
)

// "Resolve externally authored active third-party m edges from
// co-maintainers, but report them to both co-maintainer and lead" — and a
// co-maintainer's active o is the same shape: the edit gates hold both
// signers up for it, so health reports it to both, and the lead's recovery
// covers the subject as a moderator, never as a maintainer invitee.
func TestThirdPartyModeratorAssignmentIsAFindingForBothSigners(t *testing.T) {
	alice := ann(t, "alice", 400, []string{"M", "<alice>"}, []string{"m", "<bob>", "200"})
	bob := ann(t, "bob", 300, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"o", "<dave>", "300"})
	dave := ann(t, "dave", 300, []string{"o", "<dave>", "300"}, []string{"maintainers"})
	asLead := resolveAs(t, "alice", "alice", alice, bob, dave)
	if asLead.ConfirmedModerator(pk("dave")) {
		t.Fatal("a co-maintainer's o assigns nothing in a lead-shaped view")
	}
	lf := hasCode(asLead, CodeThirdPartyAssignment, "alice")
	if lf == nil || lf.Severity != SeverityError || lf.Subject != pk("dave") || commandText(lf.Command) != CommandAddModerator(pk("dave")).String() {
		t.Fatalf("the lead must be told to cover dave as a moderator: %+v", asLead.Health)
	}
	if strings.Contains(lf.Message, "--add-maintainer") {
		t.Fatalf("the recovery must not invite dave as a maintainer: %s", lf.Message)
	}
	asBob := resolveAs(t, "alice", "bob", alice, bob, dave)
	bf := hasCode(asBob, CodeThirdPartyAssignment, "bob")
	if bf == nil || bf.Severity != SeverityError || commandText(bf.Command) != CommandFollowLead().String() ||
		!strings.Contains(bf.Message, CommandAddModerator(pk("dave")).String()) {
		t.Fatalf("bob must be told the lead's --add-moderator, then follow-lead: %+v", asBob.Health)
	}
	// The warning after every command names the same cover.
	if got := blocksText(Advisories(asLead, pk("alice"))); !strings.Contains(got, CommandAddModerator(pk("dave")).String()) || strings.Contains(got, "--add-maintainer") {
		t.Fatalf("lead warning: %s", got)
	}
	// Once the lead covers dave with her own o, only follow-lead is left.
	covered := ann(t, "alice", 500, []string{"M", "<alice>"}, []string{"m", "<bob>", "200"}, []string{"o", "<dave>", "500"})
	r := resolveAs(t, "alice", "alice", covered, bob, dave)
	if lf := hasCode(r, CodeThirdPartyAssignment, "alice"); lf == nil || commandText(lf.Command) != CommandFollowLead().String() {
		t.Fatalf("covered: the lead asks bob to follow: %+v", r.Health)
	}
	if !r.ConfirmedModerator(pk("dave")) {
		t.Fatal("the lead's o and dave's self-o confirm him")
	}
	// Bob's m:lead is the edge back to the lead, not a third party.
	back := ann(t, "bob", 300, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"m", "<alice>", "200"})
	if f := hasCode(resolveAs(t, "alice", "alice", alice, back), CodeThirdPartyAssignment, "alice"); f != nil {
		t.Fatalf("an m naming the lead is not a third-party assignment: %+v", f)
	}
}

// The m subject keeps --add-maintainer: the role assigned decides the cover.
func TestThirdPartyMaintainerAssignmentCoverIsAddMaintainer(t *testing.T) {
	alice := ann(t, "alice", 400, []string{"M", "<alice>"}, []string{"m", "<bob>", "200"})
	bob := ann(t, "bob", 300, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"m", "<carol>", "300"}, []string{"o", "<carol>", "300"})
	carol := ann(t, "carol", 300, []string{"M", "<bob>", "300"}, []string{"m", "<carol>", "300"})
	r := resolveAs(t, "alice", "alice", alice, bob, carol)
	n := 0
	for _, f := range r.Health {
		if f.Code == CodeThirdPartyAssignment && f.Author == pk("alice") {
			n++
			if commandText(f.Command) != CommandAddMaintainer(pk("carol")).String() {
				t.Fatalf("m subject: %+v", f)
			}
		}
	}
	if n != 1 {
		t.Fatalf("one lead finding per subject, got %d: %+v", n, r.Health)
	}
}

// blocksText renders warning blocks without selectors, one after another.
func blocksText(bs []suggest.Block) string {
	var b strings.Builder
	for _, x := range bs {
		b.WriteString(x.Render(suggest.Selectors{}) + "\n")
	}
	return b.String()
}
