package termui

import (
	"fmt"
	"io"
	"strings"
)

// LabelWidth is the width of the label column.
const LabelWidth = 17

// Lines writes "label  value" rows with a fixed label column.
type Lines struct {
	W  io.Writer
	St Styles
	// Width is the terminal's width in columns; a row longer than it
	// continues on the next line under the value column, broken at a
	// space (so never inside an npub or a URL). 0 breaks nothing.
	Width int
}

// Row writes one row.
func (p *Lines) Row(label, value string) {
	// Width, not len: a label may carry ANSI styling.
	pad := strings.Repeat(" ", max(1, LabelWidth-Width(label)))
	lines := Wrap(value, p.Width-LabelWidth-2)
	if p.Width > 0 && LabelWidth+Width(lines[0]) > p.Width && label != "" {
		// A word wider than the value column (a full npub, a long URL)
		// starts under the label instead of running past the edge.
		fmt.Fprintf(p.W, "%s\n", p.St.Apply(p.St.Label, label))
		p.more(lines, "")
		return
	}
	fmt.Fprintf(p.W, "%s%s%s\n", p.St.Apply(p.St.Label, label), pad, lines[0])
	p.more(lines[1:], "")
}

// more writes continuation lines under the value column, indented two
// more; a line too wide for that is indented as much as still fits (a
// word is never broken).
func (p *Lines) more(lines []string, style string) {
	for _, l := range lines {
		indent := LabelWidth + 2
		if p.Width > 0 && indent+Width(l) > p.Width {
			indent = max(0, min(4, p.Width-Width(l)))
		}
		if style == "dim" {
			l = p.St.Apply(p.St.Dim, l)
		}
		fmt.Fprintf(p.W, "%s%s\n", strings.Repeat(" ", indent), l)
	}
}

// Wrap breaks text at spaces into lines of at most width visible columns;
// a word longer than width stays whole on its own line. width <= 0 keeps
// one line.
func Wrap(text string, width int) []string {
	if width <= 0 || Width(text) <= width {
		return []string{text}
	}
	var out []string
	cur := ""
	for _, w := range strings.Split(text, " ") {
		switch {
		case cur == "":
			cur = w
		case Width(cur)+1+Width(w) <= width:
			cur += " " + w
		default:
			out = append(out, strings.TrimRight(cur, " "))
			cur = w
		}
	}
	return append(out, cur)
}

// RowIf writes the row when value is not empty.
func (p *Lines) RowIf(label, value string) {
	if value != "" {
		p.Row(label, value)
	}
}

// Note writes dim text under the value column.
func (p *Lines) Note(text string) {
	p.more(Wrap(text, p.Width-LabelWidth-2), "dim")
}

// NoteWhole writes dim text under the value column on one line, never
// wrapped: a command to paste must stay whole.
func (p *Lines) NoteWhole(text string) { p.more([]string{text}, "dim") }

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
