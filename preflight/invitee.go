package preflight

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// withPublishedState completes an accept's state-conflict refusal with the
// invitee's own published state (maintainers.md: "The comparison includes
// Bob's latest state even when it predates the invitation"; "A join error
// shows ... a ref-by-ref state comparison in both directions"). When his
// checkout already matches the inviting state, align and force_would are
// empty and the difference is his old kind 30618 event alone, which
// confirmation would make eligible: the refs are named both ways —
// `replaced`, what publishing the aligned state changes in his published
// one, and `kept`, what keeping his published state would change in the
// repository.
func withPublishedState(r *Refusal, in StateInput) *Refusal {
	if r == nil || in.Action != ActAccept || in.Own == nil || in.Before == nil || sameState(in.Own, in.Before) {
		return r
	}
	replaced := DiffStates(in.Own, in.Before)
	kept := DiffStates(in.Before, in.Own)
	lines := []any{"", fmt.Sprintf("your published state %s differs from the repository you would join; accepting makes it eligible:", in.Own.EventID),
		"  to align it (publish the aligned state on your own coordinate):"}
	lines = append(lines, indent(indent(renderRefActions(replaced)))...)
	lines = append(lines, "  keeping it would change the joined repository:")
	lines = append(lines, indent(indent(renderRefActions(kept)))...)
	r.addLines(lines...)
	return r.with("published_state", map[string]any{"event_id": in.Own.EventID, "replaced": replaced, "kept": kept})
}

// inviteeStep makes an accept's first way out one that works for an
// invitee: `roster repo state publish` on the coordinate he selected is
// refused (he is not a maintainer there yet), so it publishes on his own
// coordinate, where he is that component's sole maintainer
// (statepub accepts the coordinate's author there), and then he accepts.
// It carries --force: the aligned refs replace his old published ones,
// which they need not descend from; --dry-run on it shows exactly that.
func inviteeStep(r *Refusal, in Input) *Refusal {
	if r == nil || in.Intent.Action != ActAccept {
		return r
	}
	own := graph.NewCoordinate(in.Author, in.Selected.Identifier)
	ref := "nostr://" + npub(own.Pubkey) + "/" + url.PathEscape(own.Identifier)
	_, published := r.Details["published_state"]
	cmds := r.Commands[:0:0]
	for _, c := range r.Commands {
		if w := c.Words(); len(w) >= 4 && w[1] == "repo" && w[2] == "state" && w[3] == "publish" && !c.Has("--repo") {
			if !published {
				// No published state of his differs: aligning the
				// checkout is the whole step, and the plain state publish
				// would refuse him.
				continue
			}
			// --force: the aligned refs replace his old published ones
			// (listed as `replaced`), which they need not descend from.
			c = suggest.Roster("repo", "state", "publish", "--repo", ref, "--force").
				Because("replace your published state on your own coordinate with this checkout's aligned branches and tags, then accept")
		}
		cmds = append(cmds, c)
	}
	r.Commands = cmds
	// The plain `roster repo state publish` the refusal names refuses an
	// invitee: say the step that works for him.
	step := "align this checkout as listed, then rerun the command"
	if published {
		step = "align this checkout, publish it on your own coordinate with `roster repo state publish --repo " + ref + " --force` (you are its sole maintainer), then rerun the command"
	}
	r.Message = strings.Replace(r.Message, "publish the aligned state with `roster repo state publish`, then rerun the command", step, 1)
	return r
}
