package discovery

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// MaxWriteReach bounds the people a write's evidence covers: the selected
// author, the named people and everyone a reached announcement names
// (graph.Reachable). Each of them is asked about (deletions, role-scoped
// events, NIP-65 lists) and their announcements resolved, so anyone a
// write reaches could otherwise make it ask about thousands of keys (an
// invitee naming 1,000 keys that each name 9 more). A write that reaches
// more is a *ReachBound error: the evidence cannot be complete within the
// bound, and nothing is decided on a part of it.
const MaxWriteReach = 512

// ReachBound: a write's announcements reach more than MaxWriteReach people.
type ReachBound struct {
	View *View
	// Reached counts the people reached (at least MaxWriteReach + 1).
	Reached int
	// Widest is the reached author whose latest announcement names the
	// most people, and Names how many it names.
	Widest string
	Names  int
}

func (e *ReachBound) Error() string {
	return fmt.Sprintf("the announcements of %s reach %d people, more than %d", e.View.Coordinate().ATag(), e.Reached, MaxWriteReach)
}

// reachBound is the *ReachBound of a write whose reach is over the bound,
// nil otherwise.
func reachBound(v *View, events []*nostr.Event, reach []string) *ReachBound {
	if len(reach) <= MaxWriteReach {
		return nil
	}
	id := v.Coordinate().Identifier
	var anns []*nostr.Event
	for _, e := range events {
		if e.Kind == graph.KindAnnouncement && e.Tags.GetD() == id {
			anns = append(anns, e)
		}
	}
	latest := graph.Latest(anns)
	b := &ReachBound{View: v, Reached: len(reach)}
	for _, pk := range reach {
		e := latest[pk]
		if e == nil {
			continue
		}
		a, err := graph.ParseAnnouncement(e)
		if err != nil {
			continue
		}
		if n := len(a.Roles) + len(a.Legacy); n > b.Names || n == b.Names && pk < b.Widest {
			b.Widest, b.Names = pk, n
		}
	}
	return b
}
