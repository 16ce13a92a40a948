package repo

import (
	"fmt"
	"strings"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// relayBoundErr is exit 4: a write's relay search needed more relays or
// rounds than its bounds, so roster cannot know it saw every announcement
// and state event that decides the change. The relays it would still have
// asked come from events (validated URLs, still untrusted text): the
// terminal gets them escaped.
func relayBoundErr(a *cmdutil.Factory, e *discovery.RelayBound) *cmdutil.ExitError {
	s := e.Search
	wanted := e.Wanted
	shown := wanted
	if len(shown) > 3 {
		shown = shown[:3]
	}
	// Wanted stops one past the room left (a flood is not collected), so
	// its length is a lower bound.
	more := ""
	if len(wanted) > len(shown) {
		more = " and others"
	}
	var what string
	if e.Rounds {
		what = fmt.Sprintf("the relays to ask for this change did not settle: after %d extra rounds (%s asked) the answers still name relays not asked yet: %%s%s; roster asks at most %d extra rounds for a change, so it cannot be sure it saw every announcement and state event that decides it; nothing was decided or published",
			s.Rounds, relayCount(len(s.Asked)), more, discovery.MaxWriteRounds)
	} else {
		what = fmt.Sprintf("this change would have to ask more than %d relays: besides the %s asked, the announcements and NIP-65 relay lists of the people involved name at least %d more: %%s%s; roster asks at most %d for a change, so it cannot be sure it saw every announcement and state event that decides it; nothing was decided or published",
			discovery.MaxWriteRelays, relayCount(len(s.Asked)), len(wanted), more, discovery.MaxWriteRelays)
	}
	safe := make([]string, len(shown))
	named := make([]string, len(shown))
	for i, u := range shown {
		safe[i] = termtext.Line(u)
		if i < len(e.WantedFrom) && e.WantedFrom[i].Pubkey != "" {
			by := " (listed by " + learnedBy(e.WantedFrom[i]) + ")"
			named[i], safe[i] = u+by, safe[i]+by
		} else {
			named[i] = u
		}
	}
	wantedFrom := []map[string]any{}
	for _, l := range e.WantedFrom {
		wantedFrom = append(wantedFrom, map[string]any{"url": l.URL, "from": l.From, "npub": graph.Npub(l.Pubkey)})
	}
	learned := []map[string]any{}
	for _, l := range s.Learned {
		learned = append(learned, map[string]any{"url": l.URL, "from": l.From, "npub": graph.Npub(l.Pubkey), "round": l.Round})
	}
	return &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "relay-bound",
		Err:      fmt.Errorf(what, strings.Join(named, ", ")),
		Terminal: fmt.Sprintf(what, strings.Join(safe, ", ")),
		Details: map[string]any{"asked": s.Asked, "wanted": wanted, "wanted_from": wantedFrom, "learned": learned, "rounds": s.Rounds,
			"max_relays": discovery.MaxWriteRelays, "max_rounds": discovery.MaxWriteRounds, "limit": map[bool]string{true: "rounds", false: "relays"}[e.Rounds]},
		Commands: []suggest.Command{suggest.Roster("repo").Because("the repository as the relays asked show it, and which relays its announcements list")}}
}

func relayCount(n int) string {
	if n == 1 {
		return "1 relay"
	}
	return fmt.Sprintf("%d relays", n)
}
