package preflight

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/suggest"
)

// Rule (every command warns the lead of a co-maintainer's active
// third-party assignment, and the add that would confirm one says so
// first): Carol acknowledges Alice and her announcement actively assigns
// Dave as moderator. Alice's add previews that once Carol is confirmed
// Carol's o gates her edits, naming the covering add.
func TestAddPreviewWarnsThatTheInviteesThirdPartyAssignmentWillGateTheLead(t *testing.T) {
	w := twoPerson(t)
	w.announce("carol", 2400, []string{"M", "<alice>", "2400"}, []string{"m", "<carol>", "2400"}, []string{"o", "<dave>", "2400"},
		[]string{"maintainers", "<alice>", "<carol>"})
	p, r := w.prepare("alice", "alice", 2500, Intent{Action: ActAdd, Subject: pk("carol")})
	if r != nil {
		t.Fatalf("refused %s: %s", r.Code, r.Message)
	}
	var said string
	for _, g := range p.Guidance {
		said += suggest.Join(g.Whats, " ").String()
		if g.Command != nil {
			said += " | " + g.Command.Line()
		}
	}
	if !strings.Contains(said, npub(pk("dave"))) || !strings.Contains(said, "roster repo follow-lead") || !strings.Contains(said, "--add-moderator "+npub(pk("dave"))) {
		t.Fatalf("guidance %q", said)
	}
}
