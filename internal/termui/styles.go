// Package termui is roster's small toolkit for human output on a terminal:
// a palette that is plain unless colour was asked for, "label  value" rows
// with a fixed label column, and a self-erasing progress line for relay
// rounds. It decides nothing about what is shown.
package termui

import (
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Styles is the palette of the human output. The zero value (plain) prints
// text unchanged: used when stdout is not a terminal or NO_COLOR is set.
type Styles struct {
	Label, Good, Warn, Bad, Dim lipgloss.Style
	on                          bool
}

// NewStyles is the palette for w: coloured when color is true.
func NewStyles(w io.Writer, color bool) Styles {
	if !color {
		return Styles{}
	}
	r := lipgloss.NewRenderer(w)
	// The decision to colour was made from our own TTY/NO_COLOR view; basic ANSI
	// works on every terminal, so don't let termenv re-probe the environment.
	r.SetColorProfile(termenv.ANSI)
	return Styles{
		on:    true,
		Label: r.NewStyle().Bold(true),
		Good:  r.NewStyle().Foreground(lipgloss.Color("2")),
		Warn:  r.NewStyle().Foreground(lipgloss.Color("3")),
		Bad:   r.NewStyle().Foreground(lipgloss.Color("1")).Bold(true),
		Dim:   r.NewStyle().Foreground(lipgloss.Color("8")),
	}
}

// Apply styles text with st, or returns it unchanged in the plain palette.
func (s Styles) Apply(st lipgloss.Style, text string) string {
	if !s.on || text == "" {
		return text
	}
	return st.Render(text)
}

// Dash is s, or "-" when s is empty.
func Dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
