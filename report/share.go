package report

import (
	"strings"

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
	// CloneURL is the first clone URL the repository advertises, "" when
	// it advertises none (then the invitee needs a clone of their own).
	CloneURL string `json:"clone_url"`
	// Paste is what the invitee pastes, in order: `git clone` of CloneURL
	// and the accept command run inside that clone (which links it); only
	// the accept command when no clone URL is advertised.
	Paste []string `json:"paste"`

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
	return &Share{URL: u, AcceptCommand: cmd.Line(), Accept: cmd, Paste: []string{cmd.Line()}}
}

// WithClone adds the first of the advertised clone URLs to the share: the
// invitee pastes `git clone <url> <dir>` and then, inside dir (named after
// the identifier), the accept command. A URL git cannot clone from, or a
// path on the author's machine, is not offered.
func (s *Share) WithClone(c graph.Coordinate, cloneURLs []string) *Share {
	if s == nil {
		return nil
	}
	for _, u := range cloneURLs {
		u = strings.TrimSpace(u)
		if parsed, err := gitstate.ParseCloneURL(u); err != nil || parsed.Form == gitstate.FormPath {
			continue // not a Git server (nostr://, a remote helper) or a path on the author's machine
		}
		dir := CloneDir(c.Identifier)
		s.CloneURL = u
		s.Paste = []string{suggest.Git("clone", u, dir).Line(), "cd " + suggest.Quote(dir) + " && " + s.AcceptCommand}
		break
	}
	return s
}

// CloneDir is the directory a share's `git clone` line clones into: the
// identifier, when it is a plain directory name, else "repo".
func CloneDir(identifier string) string {
	if identifier == "" || identifier == "." || identifier == ".." || strings.HasPrefix(identifier, "-") || len(identifier) > 100 {
		return "repo"
	}
	for _, r := range identifier {
		if r < ' ' || r == 0x7f || r == '/' || r == '\\' {
			return "repo"
		}
	}
	return identifier
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
