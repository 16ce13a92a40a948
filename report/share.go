package report

import (
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// Share is how a repository is handed to someone else: its nostr:// URL
// with a relay hint (so a clone, or `roster repo --repo <url>`, knows where
// to ask), and the command an invited maintainer runs to accept. The
// command carries only the URL: it runs in the invitee's own checkout and
// roster home, not in the sender's.
type Share struct {
	URL           string `json:"url"`
	AcceptCommand string `json:"accept_command"`

	// Accept is AcceptCommand as a value (human output).
	Accept suggest.Command `json:"-"`
}

// ShareOf is the share of coordinate c with relay as its hint ("" for
// none); flags go into the accept command (--moderator for a moderator
// invitation).
func ShareOf(c graph.Coordinate, relay string, flags ...string) *Share {
	var hints []string
	if relay != "" {
		hints = []string{relay}
	}
	u := gitstate.NostrURL(c, hints)
	cmd := suggest.Roster(append(append([]string{"repo", "accept"}, flags...), "--repo", u)...)
	return &Share{URL: u, AcceptCommand: cmd.Line(), Accept: cmd}
}

// HintRelay picks the relay hint of a share: the first relay that stored
// and returned the event, else the first that accepted it, else the first
// asked.
func HintRelay(delivered []relaypool.Delivered, asked []string) string {
	for _, d := range delivered {
		if d.OK && d.ReadBack {
			return d.URL
		}
	}
	for _, d := range delivered {
		if d.OK {
			return d.URL
		}
	}
	if len(asked) > 0 {
		return asked[0]
	}
	return ""
}
