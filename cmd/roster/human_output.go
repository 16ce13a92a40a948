package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// outputStyles is the small palette of the human output. The zero value (plain)
// prints text unchanged: used when stdout is not a terminal or NO_COLOR is set.
type outputStyles struct {
	label, good, warn, bad, dim lipgloss.Style
	on                          bool
}

func newOutputStyles(w io.Writer, color bool) outputStyles {
	if !color {
		return outputStyles{}
	}
	r := lipgloss.NewRenderer(w)
	// The decision to colour was made from our own TTY/NO_COLOR view; basic ANSI
	// works on every terminal, so don't let termenv re-probe the environment.
	r.SetColorProfile(termenv.ANSI)
	return outputStyles{
		on:    true,
		label: r.NewStyle().Bold(true),
		good:  r.NewStyle().Foreground(lipgloss.Color("2")),
		warn:  r.NewStyle().Foreground(lipgloss.Color("3")),
		bad:   r.NewStyle().Foreground(lipgloss.Color("1")).Bold(true),
		dim:   r.NewStyle().Foreground(lipgloss.Color("8")),
	}
}

func (s outputStyles) apply(st lipgloss.Style, text string) string {
	if !s.on || text == "" {
		return text
	}
	return st.Render(text)
}

func humanTime(unix int64) string {
	if unix <= 0 {
		return "an unknown time"
	}
	return time.Unix(unix, 0).UTC().Format("2006-01-02 15:04:05 UTC")
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// linePrinter writes "label  value" rows with a fixed label column.
type linePrinter struct {
	w  io.Writer
	st outputStyles
}

const labelWidth = 17

func (p *linePrinter) row(label, value string) {
	// Width, not len: a label may carry ANSI styling.
	pad := strings.Repeat(" ", max(1, labelWidth-lipgloss.Width(label)))
	fmt.Fprintf(p.w, "%s%s%s\n", p.st.apply(p.st.label, label), pad, value)
}

func (p *linePrinter) rowIf(label, value string) {
	if value != "" {
		p.row(label, value)
	}
}

func (p *linePrinter) note(text string) {
	fmt.Fprintf(p.w, "%s  %s\n", strings.Repeat(" ", labelWidth), p.st.apply(p.st.dim, text))
}

func (p *linePrinter) list(label string, values []string) {
	for i, v := range values {
		if i > 0 {
			label = ""
		}
		p.row(label, v)
	}
}

func (p *linePrinter) blank() { fmt.Fprintln(p.w) }

// members lists people lead first, then confirmed, then invited, marking
// the lead, the selected maintainer and the viewer.
func (p *linePrinter) members(label string, ms []memberJSON, rep *repoReport) {
	if len(ms) == 0 {
		p.row(label, "none")
		return
	}
	rank := func(m memberJSON) int {
		switch {
		case rep != nil && rep.LeadMaintainer != nil && *rep.LeadMaintainer == m.Npub:
			return 0
		case m.Status == "confirmed":
			return 1
		}
		return 2
	}
	sorted := append([]memberJSON{}, ms...)
	sort.SliceStable(sorted, func(i, j int) bool { return rank(sorted[i]) < rank(sorted[j]) })
	for i, m := range sorted {
		if i > 0 {
			label = ""
		}
		status := p.st.apply(p.st.good, m.Status)
		if m.Status != "confirmed" {
			status = p.st.apply(p.st.warn, m.Status)
		}
		var marks []string
		if rep != nil && rank(m) == 0 {
			marks = append(marks, "lead")
		}
		if rep != nil && m.Npub == rep.SelectedMaintainer {
			marks = append(marks, "selected")
		}
		if rep != nil && rep.viewer != "" && m.Npub == rep.viewer {
			marks = append(marks, "you")
		}
		extra := ""
		if len(marks) > 0 {
			extra = " (" + strings.Join(marks, ", ") + ")"
		}
		p.row(label, fmt.Sprintf("%s  %s%s", m.Npub, status, extra))
	}
}
