// Package reference assembles the reference relay-side authorities as
// `roster dev relay` runs them: NIP-SW (devrelay/swrelay), NIP-PC
// (devrelay/pcrelay) and NIP-29 (devrelay/grouprelay), wired to each
// other. The NIP-29 groups are the relay's channel table: NIP-SW imports and
// moves must name channels that exist there and are not deleted, and a
// project's home channel is one of them. NIP-SW and NIP-PC both allocate
// kind 30623; only one authority may claim a kind, so the NIP-SW authority
// claims it (rejecting every client-submitted 30623, which neither spec
// allows) and NIP-PC leaves it.
package reference

import (
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/devrelay/pcrelay"
	"github.com/roster-cli/roster/devrelay/swrelay"
)

// Authorities returns a fresh set of the three authorities, for one relay.
func Authorities() []devrelay.Authority {
	groups := grouprelay.New()
	return []devrelay.Authority{
		swrelay.New(swrelay.Options{Channels: groups.ChannelExists}),
		pcrelay.New(pcrelay.Options{Groups: groups, LeaveStateKind: true}),
		groups,
	}
}
