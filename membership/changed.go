package membership

import (
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/journal/track"
)

// MaxChangedShown bounds the changed events a concurrent-change message
// names: the count, then the first MaxChangedShown. Details keep the list.
const MaxChangedShown = 5

// reachableChanges keeps the fingerprint keys (preflight.FingerprintChanges)
// whose author the change can be affected by: reachable (graph.Reachable)
// from the selected author, the runner, the subject and the lead, in the
// preview's events or the recheck's. A same-identifier announcement of an
// unrelated key appearing or going is not a change of this repository: a
// relay that holds thousands of strangers' announcements the other relays
// do not would otherwise refuse every write, with a message naming each.
// A deletion counts when its author is reachable.
func reachableChanges(out *Outcome, fresh []*nostr.Event, keys []string) []string {
	all := append(append([]*nostr.Event(nil), out.Before.Events...), fresh...)
	return track.Reachable(all, out.Before.Coordinate(), keys, reachSeeds(out)...)
}

// reachSeeds are the people a change starts the reach from: the viewer,
// the intent's subject and lead, and the signing author.
func reachSeeds(out *Outcome) []string {
	seeds := []string{out.Before.Viewer, out.Intent.Subject, out.Intent.Lead}
	if out.Plan != nil {
		seeds = append(seeds, out.Plan.Author)
	}
	return seeds
}

// changedSummary is changed as a message says it: all of them when few,
// else the count and the first MaxChangedShown.
func changedSummary(changed []string) string {
	if len(changed) <= MaxChangedShown {
		return strings.Join(changed, ", ")
	}
	return fmt.Sprintf("%d events changed: %s and %d more", len(changed), strings.Join(changed[:MaxChangedShown], ", "), len(changed)-MaxChangedShown)
}
