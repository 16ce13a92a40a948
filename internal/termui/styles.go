// Package termui is roster's small toolkit for human output on a terminal:
// a palette that is plain unless colour was asked for, "label  value" rows
// with a fixed label column, and a self-erasing progress line for relay
// rounds. It decides nothing about what is shown.
package termui

import (
	"io"
	"strings"
)

// Style is one entry of the palette: the parameters of an ANSI SGR
// sequence ("1" bold, "32" green). Basic ANSI works on every terminal, and
// the decision to colour is made once, from our own TTY and NO_COLOR view
// (cmdutil.IoStreams.Color), so nothing here probes the environment.
//
// Written here rather than taken from a styling library: lipgloss and its
// terminal stack cost a tenth of a warm read's start-up in package
// initialisation alone (docs/PERFORMANCE.md, "Start-up, seventh pass"),
// for five fixed styles.
type Style struct{ sgr string }

// Styles is the palette of the human output. The zero value (plain) prints
// text unchanged: used when stdout is not a terminal or NO_COLOR is set.
type Styles struct {
	Label, Good, Warn, Bad, Dim Style
	on                          bool
}

// NewStyles is the palette for w: coloured when color is true. w is where
// the text goes; the palette is the same for every writer.
func NewStyles(w io.Writer, color bool) Styles {
	_ = w
	if !color {
		return Styles{}
	}
	return Styles{
		on:    true,
		Label: Style{"1"},    // bold
		Good:  Style{"32"},   // green
		Warn:  Style{"33"},   // yellow
		Bad:   Style{"1;31"}, // bold red
		Dim:   Style{"90"},   // bright black
	}
}

// Apply styles text with st, or returns it unchanged in the plain palette.
// As a block: a tab is four spaces, each line is styled on its own (so a
// line break never carries colour into the next row), and a shorter line
// is padded with plain spaces to the widest.
func (s Styles) Apply(st Style, text string) string {
	if !s.on || text == "" || st.sgr == "" {
		return text
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\t", "    ")
	lines := strings.Split(text, "\n")
	widest := Width(text)
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("\x1b[" + st.sgr + "m" + l + "\x1b[0m")
		if pad := widest - Width(l); pad > 0 {
			b.WriteString(strings.Repeat(" ", pad))
		}
	}
	return b.String()
}

// Dash is s, or "-" when s is empty.
func Dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
