package discovery

import (
	"slices"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/relaypool"
)

// SelectionRelays is where a read of sel looks: the user's relays alone
// when they are pinned (--relay replaces discovery), else the user's
// relays plus sel's relay hints (an naddr's, a nostr:// URL's, a NIP-05
// document's) while they fit the bound every relay source shares: the
// hints bring the relays asked to at most MaxWriteRelays, the first hints
// first. The user's own relays are always asked.
func SelectionRelays(user []string, pinned bool, sel gitstate.Selection) []string {
	out := relaypool.NormalizeRelays(user)
	if pinned {
		return out
	}
	for _, h := range relaypool.NormalizeRelays(sel.Relays) {
		if len(out) >= MaxWriteRelays {
			break
		}
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}
