package repo

import (
	"fmt"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/suggest"
)

// DiscoveryRelays is where to look: --relay alone when given (it replaces
// discovery), else ROSTER_RELAYS (or config.yaml's relays) plus the
// coordinate's relay hints (an naddr's, a nostr:// URL's, a NIP-05
// document's) while they fit the bound every relay source shares: the
// hints bring the relays asked to at most discovery.MaxWriteRelays, the
// first hints first (discovery.SelectionRelays). The user's own relays
// are always asked.
func DiscoveryRelays(a *cmdutil.Factory, sel gitstate.Selection) []string {
	if len(a.Opts.Relays) > 0 {
		return discovery.SelectionRelays(a.Opts.Relays, true, sel)
	}
	return discovery.SelectionRelays(a.DefaultRelays(), false, sel)
}

// noRelaysErr: the selection has no relay to ask.
func noRelaysErr(a *cmdutil.Factory, sel gitstate.Selection) *cmdutil.ExitError {
	return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "no-relays",
		Err: fmt.Errorf("no relays to ask for %s: the coordinate carries no relay hints, no --relay was given, ROSTER_RELAYS is unset and config.yaml lists no relays", render.DisplayCoord(sel.Coordinate)),
		Commands: []suggest.Command{suggest.Roster("repo").With("--relay", "wss://<relay>"), suggest.Shell("export ROSTER_RELAYS=wss://<relay>,wss://<relay>"),
			suggest.Roster("repo").With("--offline")}}
}
