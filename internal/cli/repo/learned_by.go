package repo

import (
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
)

// learnedBy says whose event named a relay a write asks: "npub1…'s
// announcement" or "npub1…'s NIP-65 relay list".
func learnedBy(l discovery.LearnedRelay) string {
	what := "announcement"
	if l.From == "relay-list" {
		what = "NIP-65 relay list (kind 10002)"
	}
	return graph.Npub(l.Pubkey) + "'s " + what
}
