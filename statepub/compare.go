package statepub

import (
	"strings"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/preflight"
)

// Comparison is `roster repo state`'s side of the comparison publish
// makes: the checkout's refs (with the selected nostr:// remote's
// remote-tracking branches) against the view's resolved state, both ways.
type Comparison struct {
	// Dir is the checkout's directory and Remote the nostr:// remote whose
	// remote-tracking branches count as aligned ("" when there is none).
	Dir, Remote string
	// Resolved is the state compared with (nil: no state is resolved).
	Resolved  *preflight.ResolvedState
	Alignment preflight.CheckoutAlignment
}

// Aligned reports whether a state is resolved and the checkout matches it.
func (c *Comparison) Aligned() bool { return c.Resolved != nil && len(c.Alignment.Align) == 0 }

// CompareCheckout reads the view's checkout refs, remote and
// remote-tracking branches and compares them with the view's resolved
// state (preflight.AlignCheckout). The view must have a checkout. It fails
// closed: refs that cannot be read completely are the reading's error,
// unwrapped, for the caller to refuse with (CodeLocalRefs).
func CompareCheckout(v *discovery.View) (*Comparison, error) {
	co := v.Checkout
	local, err := co.LocalRefs()
	if err != nil {
		return nil, err
	}
	remote, err := co.NostrRemote(v.Coordinate(), preferredRemote(v))
	if err != nil {
		return nil, err
	}
	tracking, err := co.TrackingBranches(remote)
	if err != nil {
		return nil, err
	}
	c := &Comparison{Dir: co.Dir(), Remote: remote, Resolved: resolvedState(v)}
	c.Alignment = preflight.AlignCheckout(c.Resolved, local, tracking)
	return c, nil
}

// preferredRemote is the remote the selection came from ("remote <name>"),
// when it names exactly one.
func preferredRemote(v *discovery.View) string {
	if rest, ok := strings.CutPrefix(v.Selection.Detail, "remote "); ok && !strings.Contains(rest, ",") {
		return rest
	}
	return ""
}

// resolvedState is the view's resolved state as preflight compares it.
func resolvedState(v *discovery.View) *preflight.ResolvedState {
	if v.State == nil {
		return nil
	}
	return &preflight.ResolvedState{EventID: v.State.EventID, Author: v.State.Author, Head: v.State.Head, Refs: v.State.Refs}
}
