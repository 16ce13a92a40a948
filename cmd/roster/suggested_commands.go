package main

import (
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// displayCoord renders a coordinate the way people say it: npub/identifier.
func displayCoord(c graph.Coordinate) string {
	return graph.Npub(c.Pubkey) + "/" + c.Identifier
}

// selectors are the user's --repo, --relay and --home, which every
// suggested command repeats where it uses them (suggest.Selectors.Apply):
// the one place suggestions become text.
func (a *app) selectors() suggest.Selectors {
	return suggest.Selectors{Repo: a.opts.Repo, Relays: a.opts.Relays, Home: a.opts.Home}
}

// render is the suggestions as the user pastes them, each once.
func (a *app) render(cmds []suggest.Command) []string { return a.selectors().RenderAll(cmds) }

// shellQuote returns s as one shell word (suggest.Quote).
func shellQuote(s string) string { return suggest.Quote(s) }
