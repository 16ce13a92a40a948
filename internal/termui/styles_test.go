package termui

import (
	"io"
	"testing"
)

// Rule (human output is styled with basic ANSI SGR sequences): each style's
// bytes, tabs, line breaks and padding as the output has always had them
// (the vectors were taken from lipgloss's ANSI profile, which this
// replaced), so a terminal shows the same colours.
func TestEachStyleWritesItsANSISequence(t *testing.T) {
	s := NewStyles(io.Discard, true)
	cases := []struct {
		st         Style
		text, want string
	}{
		{s.Label, "text", "\x1b[1mtext\x1b[0m"},
		{s.Good, "two words", "\x1b[32mtwo words\x1b[0m"},
		{s.Warn, "text", "\x1b[33mtext\x1b[0m"},
		{s.Bad, "text", "\x1b[1;31mtext\x1b[0m"},
		{s.Dim, "  pad  ", "\x1b[90m  pad  \x1b[0m"},
		{s.Label, "héllo 🚀", "\x1b[1mhéllo 🚀\x1b[0m"},
		{s.Good, "a\tb", "\x1b[32ma    b\x1b[0m"},
		{s.Label, "line1\nline2", "\x1b[1mline1\x1b[0m\n\x1b[1mline2\x1b[0m"},
		{s.Label, "a\n\nb", "\x1b[1ma\x1b[0m\n\x1b[1m\x1b[0m \n\x1b[1mb\x1b[0m"},
		{s.Label, "a\r\nb", "\x1b[1ma\x1b[0m\n\x1b[1mb\x1b[0m"},
		{s.Label, "\x1b[1mx\x1b[0m", "\x1b[1m\x1b[1mx\x1b[0m\x1b[0m"},
		{s.Bad, "", ""},
	}
	for _, c := range cases {
		if got := s.Apply(c.st, c.text); got != c.want {
			t.Errorf("Apply(%q, %q) = %q, want %q", c.st.sgr, c.text, got, c.want)
		}
	}
	plain := NewStyles(io.Discard, false)
	if got := plain.Apply(s.Bad, "a\tb"); got != "a\tb" {
		t.Errorf("the plain palette changed the text: %q", got)
	}
}

// Rule (rows align by what a terminal shows, not by bytes): escape
// sequences take no column, CJK and emoji take two, a combining mark or a
// zero-width space none, and a block is as wide as its widest line.
func TestWidthCountsTerminalColumns(t *testing.T) {
	cases := map[string]int{
		"":                   0,
		"abc":                3,
		"héllo":              5,
		"e\u0301":            1,
		"日本語":                6,
		"ｱ":                  1,
		"🚀":                  2,
		"👩\u200d💻":           2,
		"🇩🇪":                 2,
		"ℹ️":                 2,
		"✔":                  1,
		"\u200b":             0,
		"a\u00adb":           2,
		"a\x00b":             2,
		"a\x7fb":             2,
		"a\tb":               2,
		"ab\nabcd\nx":        4,
		"\x1b[1mbold\x1b[0m": 4,
		"\x1b[38;5;1mx":      1,
		"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\": 4,
		"\x1b]0;title\x07x":                        1,
		"a\x1b(Bb":                                 2,
		"\x1bcx":                                   1,
		"x\x1b":                                    1,
		"x\x1b[":                                   1,
	}
	for text, want := range cases {
		if got := Width(text); got != want {
			t.Errorf("Width(%q) = %d, want %d", text, got, want)
		}
	}
}
