package hooks

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// maintainers.md: "Bob's first later push never becomes an implicit state
// choice". A state Bob published before his confirmation (his former
// component's, which the maintainers' state replaced) does not make him
// "not just confirmed": every pushed ref is still compared with the
// accepted component's state. One published since his effective start
// does; so does nothing that is deleted.
func TestGuardComparesPushesAfterConfirmationWhateverTheSignerPublishedBefore(t *testing.T) {
	base := []*nostr.Event{
		alice.announce(t, 1000, roleTag("M", alice), roleTag("m", bob, "200"), maint(alice, bob)),
		bob.announce(t, 1001, roleTag("M", alice, "200"), roleTag("m", bob, "200"), maint(alice, bob)),
	}
	accepted := alice.state(t, 1003, oidState)
	former := bob.state(t, 150, oidSide) // before his effective start (200)
	events := append(append([]*nostr.Event{}, base...), former, accepted)
	if st := graph.SelectState(events, graph.Resolve(events, graph.NewCoordinate(alice.pk, "proj"), 5000, graph.Options{})); st == nil || st.ID != accepted.ID {
		t.Fatalf("the fixture's resolved state is not alice's: %v", st)
	}
	d := Guard(input(t, bob, events, push("refs/heads/main", oidSide), push("refs/heads/topic", oidAhead)))
	if !d.Refuse || d.Finding == nil || d.Finding.Reason != ReasonNotDescended || len(d.Finding.Refs) != 1 || d.Finding.Refs[0].Ref != "refs/heads/main" {
		t.Fatalf("a state from before the confirmation let a diverged push through: %+v", d)
	}
	// The way on is to build on the state, not follow-lead (bob's
	// announcement is fine).
	var cmds []string
	for _, c := range d.Finding.Commands {
		cmds = append(cmds, c.String())
	}
	all := strings.Join(cmds, "\n")
	if strings.Contains(all, "follow-lead") || !strings.Contains(all, "roster repo state") || !strings.Contains(all, "git merge "+oidState) {
		t.Fatalf("commands:\n%s", all)
	}
	since := append(append([]*nostr.Event{}, events...), bob.state(t, 1004, oidSide))
	if d := Guard(input(t, bob, since, push("refs/heads/main", oidBase))); d.Refuse {
		t.Fatalf("bob published state since his confirmation: %+v", d)
	}
}
