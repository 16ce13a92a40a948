package graph

import (
	"github.com/nbd-wtf/go-nostr/nip19"

	"github.com/roster-cli/roster/suggest"
)

// The commands findings and acknowledgements name: the exact commands a
// user runs, as values (suggest renders them, with the user's selectors).

// CommandFixMaintainers repairs only the compatibility `maintainers` tag.
func CommandFixMaintainers() suggest.Command {
	return suggest.Roster("repo", "edit", "--fix-maintainers")
}

// CommandFollowLead converges an announcement on the lead roster.
func CommandFollowLead() suggest.Command { return suggest.Roster("repo", "follow-lead") }

// CommandAccept accepts the offered co-maintainer role.
func CommandAccept() suggest.Command { return suggest.Roster("repo", "accept") }

// CommandAcknowledge records a transition in the lead roster.
func CommandAcknowledge(pubkey string) suggest.Command {
	return suggest.Roster("repo", "edit", "--acknowledge-maintainer-change", Npub(pubkey))
}

// CommandAddMaintainer asks the lead to cover a subject.
func CommandAddMaintainer(pubkey string) suggest.Command {
	return suggest.Roster("repo", "edit", "--add-maintainer", Npub(pubkey))
}

// CommandAddModerator asks the lead to assign (or cover) a moderator.
func CommandAddModerator(pubkey string) suggest.Command {
	return suggest.Roster("repo", "edit", "--add-moderator", Npub(pubkey))
}

// CommandAcceptModerator acknowledges an offered moderator role.
func CommandAcceptModerator() suggest.Command { return suggest.Roster("repo", "accept", "--moderator") }

// Npub encodes a 64-hex pubkey for people; anything else is returned as is
// (so messages still show something). The one npub encoding of roster.
func Npub(pubkey string) string {
	if !isLowerHex64(pubkey) {
		return pubkey
	}
	n, err := nip19.EncodePublicKey(pubkey)
	if err != nil {
		return pubkey
	}
	return n
}

// Npubs is Npub of each pubkey, in order; never nil, so an empty list is
// `[]` in JSON.
func Npubs(pubkeys []string) []string {
	out := make([]string, len(pubkeys))
	for i, p := range pubkeys {
		out[i] = Npub(p)
	}
	return out
}
