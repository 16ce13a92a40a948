package render

import (
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/suggest"
)

// DisplayCoord renders a coordinate the way people say it: npub/identifier.
func DisplayCoord(c graph.Coordinate) string {
	return graph.Npub(c.Pubkey) + "/" + c.Identifier
}

// Selectors are the user's --repo, --relay and --home, which every
// suggested command repeats where it uses them (suggest.Selectors.Apply):
// the one place suggestions become text. A command for someone else gets
// the repository and the relays, never the user's --home.
func Selectors(a *cmdutil.Factory) suggest.Selectors {
	sel := suggest.Selectors{Repo: a.Opts.Repo, Relays: a.Opts.Relays, Home: a.Opts.Home, Shared: a.SharedRepo}
	if pk := a.ViewerPubkey(); pk != "" {
		sel.Me = graph.Npub(pk)
	}
	return sel
}

// Render is the suggestions as the user pastes them, each once.
func Render(a *cmdutil.Factory, cmds []suggest.Command) []string { return Selectors(a).RenderAll(cmds) }

// shellQuote returns s as one shell word (suggest.Quote).
func shellQuote(s string) string { return suggest.Quote(s) }
