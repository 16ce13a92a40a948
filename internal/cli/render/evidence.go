package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/termtext"
	"github.com/spf13/cobra"
)

// AddVerboseFlag gives a write whose preview has more to say the
// --verbose that says it (what: the flag's help). Only such commands take
// it: elsewhere --verbose is an unknown flag (exit 2).
func AddVerboseFlag(cmd *cobra.Command, a *cmdutil.Factory, what string) {
	cmd.Flags().BoolVar(&a.Verbose, "verbose", false, what)
}

// Evidence is what a write's preview checked, counted: the one line a
// person reads under the consequence (the full evidence is --verbose and
// --json).
type Evidence struct {
	// Relays asked (0: not said).
	Relays int
	// State: the repository's resolved state was compared.
	State bool
	// Servers: Git servers asked for the post-change objects; ServersSame:
	// not asked again, the state and the servers stay as they were.
	Servers     int
	ServersSame bool
	// Rechecked: the write published after its recheck found nothing
	// changed since the preview.
	Rechecked bool
}

// Line is "checked: 2 relays, repository state, 1 Git server — nothing
// changed since the preview".
func (e Evidence) Line() string {
	var parts []string
	if e.Relays > 0 {
		parts = append(parts, Count(e.Relays, "relay", "relays"))
	}
	if e.State {
		parts = append(parts, "repository state")
	}
	switch {
	case e.ServersSame:
		parts = append(parts, Count(e.Servers, "Git server", "Git servers")+" (unchanged)")
	case e.Servers > 0:
		parts = append(parts, Count(e.Servers, "Git server", "Git servers"))
	}
	line := "checked: " + strings.Join(parts, ", ")
	if e.Rechecked {
		line += " — nothing changed since the preview"
	}
	return line
}

// Count is "1 relay", "2 relays".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// PrintEvidence writes the evidence line, then what was not checked, only
// when something was not; with --verbose every comparison of the full
// evidence follows, one bullet each. Rows wrap at the terminal's width.
func PrintEvidence(a *cmdutil.Factory, e Evidence, checked, notChecked []string) {
	w, width := a.Io.Out, TerminalWidth(a)
	FitLine(w, width, 2, e.Line())
	if len(notChecked) > 0 {
		FitLine(w, width, 2, "not checked: "+termtext.Line(strings.Join(notChecked, "; ")))
	}
	if a.Verbose && len(checked) > 0 {
		fmt.Fprintln(w, "evidence:")
		for _, c := range checked {
			Bullet(w, width, termtext.Line(c))
		}
	}
}

// Bullet writes "  - text", wrapped under the text.
func Bullet(w io.Writer, width int, text string) {
	FitLine(w, width, 4, "  - "+text)
}

// EventID is an event id as a person reads it: shortened on a terminal
// (as npubs are) unless --full or --verbose, whole in a pipe.
func EventID(a *cmdutil.Factory, id string) string {
	if a.Io.OutTTY && !a.Full && !a.Verbose && len(id) > 12 {
		return id[:8] + "…"
	}
	return id
}

// Published is "published: state 84174a…, announcement 309324…": each id
// with what it is.
func Published(a *cmdutil.Factory, labelled [][2]string) string {
	parts := make([]string, len(labelled))
	for i, l := range labelled {
		parts[i] = l[0] + " " + EventID(a, l[1])
	}
	return "published: " + strings.Join(parts, ", ")
}
