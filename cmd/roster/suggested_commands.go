package main

import (
	"strings"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
)

// displayCoord renders a coordinate the way people say it: npub/identifier.
func displayCoord(c graph.Coordinate) string {
	return gitstate.EncodeNpub(c.Pubkey) + "/" + c.Identifier
}

// repoFlag is " --repo <value>" when the user named the repository with
// --repo, so a suggested command still names it: outside a checkout, a
// suggestion without it would fail with "no --repo given".
func (a *app) repoFlag() string {
	if a.opts.Repo == "" {
		return ""
	}
	return " --repo " + shellQuote(a.opts.Repo)
}

// relayFlags repeats the user's --relay flags, so a suggested retry asks
// the same relays (without them it would fall back to discovery, or to none).
func (a *app) relayFlags() string {
	var b strings.Builder
	for _, r := range a.opts.Relays {
		b.WriteString(" --relay " + shellQuote(r))
	}
	return b.String()
}

// shellQuote returns s as one shell word: unchanged when it is made of safe
// characters (every npub, naddr and nostr:// URL is), else single-quoted.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
