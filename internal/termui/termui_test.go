package termui

import (
	"bytes"
	"strings"
	"testing"
)

// Rule (plain output unless colour was asked for): the zero palette leaves
// text unchanged, and rows align their values in one column.
func TestPlainRowsAlignInOneColumn(t *testing.T) {
	var b bytes.Buffer
	p := &Lines{W: &b, St: NewStyles(&b, false)}
	p.Row("lead", "alice")
	p.RowIf("empty", "")
	p.List("members", []string{"bob", "carol"})
	p.Note("why")
	want := "lead             alice\n" +
		"members          bob\n" +
		"                 carol\n" +
		"                   why\n"
	if b.String() != want {
		t.Fatalf("got\n%q\nwant\n%q", b.String(), want)
	}
	if strings.Contains(b.String(), "\x1b") || NewStyles(&b, false).Apply(NewStyles(&b, true).Bad, "x") != "x" {
		t.Fatal("the plain palette styled text")
	}
}

// Rule (progress only on a terminal, never mixed with output): the line
// counts finished relays across rounds and is erased at the end; off a
// terminal nothing is written.
func TestProgressCountsRoundsAndErasesItself(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&b, true)
	p.Update(1, 2)
	p.Update(2, 2)
	p.NextRound()
	p.Update(1, 1)
	p.Done()
	if !strings.Contains(b.String(), "reading relays: 3 of 3 done") || !strings.HasSuffix(b.String(), "\r\x1b[K") {
		t.Fatalf("%q", b.String())
	}
	var quiet bytes.Buffer
	q := NewProgress(&quiet, false)
	q.Update(1, 1)
	q.Done()
	if quiet.Len() != 0 {
		t.Fatalf("off a terminal: %q", quiet.String())
	}
	// Rule (a write's progress names its phase): each phase restarts the
	// count under its own name, still only on a terminal, still erased.
	var w bytes.Buffer
	pw := NewProgress(&w, true)
	pw.Phase("publishing")
	pw.Update(1, 2)
	pw.Phase("reading back")
	pw.Update(2, 2)
	pw.Done()
	if got := w.String(); !strings.Contains(got, "publishing: 1 of 2 relays done") || !strings.Contains(got, "reading back: 2 of 2 relays done") ||
		!strings.HasSuffix(got, "\r\x1b[K") {
		t.Fatalf("%q", got)
	}
	q.Phase("publishing")
	if quiet.Len() != 0 {
		t.Fatalf("off a terminal: %q", quiet.String())
	}
	if Dash("") != "-" || Dash("x") != "x" {
		t.Fatal("Dash")
	}
}

// Rule (the colour conventions of gh, git and ls): NO_COLOR wins, then
// CLICOLOR_FORCE (anything but "0") forces colour off a terminal, then
// CLICOLOR=0 and TERM=dumb disable it, else a terminal gets colour.
func TestColorWantedFollowsNoColorCliColorAndTerm(t *testing.T) {
	cases := []struct {
		tty  bool
		env  map[string]string
		want bool
	}{
		{true, nil, true},
		{false, nil, false},
		{true, map[string]string{"NO_COLOR": "1"}, false},
		{true, map[string]string{"NO_COLOR": "0"}, false}, // any value
		{true, map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, false},
		{true, map[string]string{"CLICOLOR": "0"}, false},
		{true, map[string]string{"CLICOLOR": "1"}, true},
		{false, map[string]string{"CLICOLOR": "1"}, false},
		{false, map[string]string{"CLICOLOR_FORCE": "1"}, true},
		{false, map[string]string{"CLICOLOR_FORCE": "yes", "CLICOLOR": "0", "TERM": "dumb"}, true},
		{false, map[string]string{"CLICOLOR_FORCE": "0"}, false},
		{true, map[string]string{"CLICOLOR_FORCE": "0"}, true},
		{true, map[string]string{"TERM": "dumb"}, false},
		{true, map[string]string{"TERM": "xterm-256color"}, true},
	}
	for _, c := range cases {
		if got := ColorWanted(c.tty, func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("tty=%v env=%v: ColorWanted=%v, want %v", c.tty, c.env, got, c.want)
		}
	}
}

// Rule (fit the terminal without breaking an npub): rows break between
// words only, a word wider than the value column is indented as far as it
// still fits, and no line ends in a space.
func TestRowsWrapBetweenWordsOnly(t *testing.T) {
	var b strings.Builder
	p := &Lines{W: &b, Width: 70}
	npub := "npub1jhl6z69zdj2tdelg76y26h84w4043yugqdah7mlwtfnwc87npznqj8m2wl"
	p.Row("lead", "alice ("+npub+")  confirmed (lead, selected)")
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if len(l) > 70 || strings.HasSuffix(l, " ") {
			t.Fatalf("line %q is wider than 70 or ends in a space:\n%s", l, b.String())
		}
	}
	if !strings.Contains(b.String(), "("+npub+")") {
		t.Fatalf("the npub was broken:\n%s", b.String())
	}
	if got := Wrap("a b", 0); len(got) != 1 {
		t.Fatalf("width 0 wraps: %q", got)
	}
}

// Rule (a suggested command pastes as printed): NoteWhole never wraps, on
// any width; it starts under the value column when it fits there.
func TestNoteWholeKeepsACommandOnOneLine(t *testing.T) {
	cmd := "repair with: roster repo edit --add-maintainer npub1mfm0000000000000000000000000000000000000000000000000unuf --relay wss://relay.example"
	for _, width := range []int{0, 80, 200} {
		var b bytes.Buffer
		p := &Lines{W: &b, St: NewStyles(&b, false), Width: width}
		p.NoteWhole(cmd)
		want := strings.Repeat(" ", LabelWidth+2) + cmd + "\n"
		if width == 80 {
			want = cmd + "\n" // too wide for any indent
		}
		if b.String() != want {
			t.Fatalf("width %d: %q, want %q", width, b.String(), want)
		}
	}
}
