package membership

import (
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
)

// Switch is follow-lead's move of the selection to the lead's coordinate.
type Switch struct {
	To graph.Coordinate
	// Hints are the relay hints the selection carried; they move with it.
	Hints []string
	// InCheckout is false outside a checkout: then there was nothing to
	// switch, and the user selects the lead's coordinate with --repo.
	InCheckout bool
	// Remotes are the remotes whose nostr:// URLs moved to the lead's.
	Remotes []string
}

// switchCheckout anchors the checkout at the lead's coordinate (the
// maintainer model's "Transferring the lead": follow-lead "switches the
// local nostr:// coordinate and nostr.repo"): nostr.repo, and every remote
// URL (origin, a tracked remote, a pushurl) that named the coordinate being
// left.
//
// The selection's relay hints move with it: the lead's coordinate is the
// same repository on the same relays, and a nostr.repo naddr without the
// hint the old one carried leaves `roster repo` in the checkout with no
// relay to ask.
func switchCheckout(v *discovery.View, to graph.Coordinate) (*Switch, error) {
	sw := &Switch{To: to, Hints: v.Selection.Relays, Remotes: []string{}}
	if v.Checkout == nil {
		return sw, nil
	}
	sw.InCheckout = true
	remotes, err := v.Checkout.FollowCoordinate(v.Coordinate(), to, sw.Hints)
	if err != nil {
		return nil, &Failure{Failure: failure.Failure{Code: KindGitConfig, Class: failure.Unexpected, Err: err, Msg: "switch the checkout to " + gitstate.NostrURL(to, nil) + ": " + err.Error()}, Switch: sw}
	}
	sw.Remotes = append(sw.Remotes, remotes...)
	return sw, nil
}
