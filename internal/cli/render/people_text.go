package render

import "github.com/roster-cli/roster/suggest"

// The messages graph, preflight, membership and the workspace pipelines
// write (advisories, health findings, guidance, refusals) are built from
// parts: text, the commands to run and the people they name as values
// (suggest.Who, suggest.Sayf). This is the one place those parts become
// human text: each person is named by PeopleText.Of ("alice
// (npub1mfm…unuf)", "(you)" for the signer, the npub whole in a pipe), a
// command keeps its full npubs (it must paste as printed), and so do
// coordinates, which the rules write as text. JSON carries the plain text
// (suggest.Block.String: people as npubs).

// Named is sel with people named as pt names them.
func (pt PeopleText) Named(sel suggest.Selectors) suggest.Selectors {
	sel.Name = pt.Of
	return sel
}

// Text is a message as people read it: its people named, its commands as
// written (no selectors added: a command quoted in a sentence is the one
// the rule wrote).
func (pt PeopleText) Text(b suggest.Block) string {
	return b.Render(suggest.Selectors{Name: pt.Of})
}

// Block renders an advisory: its people named and its commands with the
// user's selectors (sel), as they paste them.
func (pt PeopleText) Block(b suggest.Block, sel suggest.Selectors) string {
	return b.Render(pt.Named(sel))
}
