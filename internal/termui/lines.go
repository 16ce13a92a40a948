package termui

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// LabelWidth is the width of the label column.
const LabelWidth = 17

// Lines writes "label  value" rows with a fixed label column.
type Lines struct {
	W  io.Writer
	St Styles
}

// Row writes one row.
func (p *Lines) Row(label, value string) {
	// Width, not len: a label may carry ANSI styling.
	pad := strings.Repeat(" ", max(1, LabelWidth-lipgloss.Width(label)))
	fmt.Fprintf(p.W, "%s%s%s\n", p.St.Apply(p.St.Label, label), pad, value)
}

// RowIf writes the row when value is not empty.
func (p *Lines) RowIf(label, value string) {
	if value != "" {
		p.Row(label, value)
	}
}

// Note writes dim text under the value column.
func (p *Lines) Note(text string) {
	fmt.Fprintf(p.W, "%s  %s\n", strings.Repeat(" ", LabelWidth), p.St.Apply(p.St.Dim, text))
}

// List writes one row per value, the label on the first only.
func (p *Lines) List(label string, values []string) {
	for i, v := range values {
		if i > 0 {
			label = ""
		}
		p.Row(label, v)
	}
}

// Blank writes an empty line.
func (p *Lines) Blank() { fmt.Fprintln(p.W) }
