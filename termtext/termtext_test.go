package termtext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLineEscapesWhatATerminalWouldActOn(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain ASCII stays", "my-repo: a tool", "my-repo: a tool"},
		{"names in any script stay", "Jürgen 李雷 Ольга مريم עברית 🦀", "Jürgen 李雷 Ольга مريم עברית 🦀"},
		{"joiners that scripts and emoji need stay", "می\u200cخواهم 👩\u200d💻", "می\u200cخواهم 👩\u200d💻"},
		{"empty stays", "", ""},
		{"line feed", "a\nlead npub1x (explicit)", `a\nlead npub1x (explicit)`},
		{"carriage return", "ok\rcomplete yes", `ok\rcomplete yes`},
		{"tab", "a\tb", `a\tb`},
		{"ESC sequence", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"NUL, BEL, backspace", "\x00\x07\x08", `\x00\x07\x08`},
		{"DEL", "a\x7fb", `a\x7fb`},
		{"C1 CSI and NEL", "\u009b2J\u0085", `\u009b2J\u0085`},
		{"bidi override", "abc\u202egnp.exe", `abc\u202egnp.exe`},
		{"bidi embeddings and pop", "\u202a\u202b\u202c\u202d", `\u202a\u202b\u202c\u202d`},
		{"bidi isolates", "\u2066x\u2067y\u2068z\u2069", `\u2066x\u2067y\u2068z\u2069`},
		{"bidi marks", "\u200e\u200f\u061c", `\u200e\u200f\u061c`},
		{"deprecated format controls", "\u206a\u206f", `\u206a\u206f`},
		{"line and paragraph separators", "a\u2028b\u2029c", `a\u2028b\u2029c`},
		{"invalid UTF-8", "bad\xff\xfe end \xe2\x82", `bad\xff\xfe end \xe2\x82`},
		{"a real replacement character stays", "\ufffd", "\ufffd"},
		{"backslashes stay", `C:\path \x1b`, `C:\path \x1b`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Line(c.in); got != c.want {
				t.Fatalf("Line(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestBlockKeepsLineFeedsAndTabsOnly(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"own layout stays", "no relay answered:\n  wss://a: closed\n\tb", "no relay answered:\n  wss://a: closed\n\tb"},
		{"carriage return", "a\r\nb", "a\\r\nb"},
		{"ESC", "x\x1b[2Ky", `x\x1b[2Ky`},
		{"bidi", "\u202e", `\u202e`},
		{"line separator", "a\u2028b", `a\u2028b`},
		{"invalid UTF-8", "\xc3", `\xc3`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Block(c.in); got != c.want {
				t.Fatalf("Block(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestLinesEscapesEach(t *testing.T) {
	got := Lines([]string{"a\nb", "c"})
	if len(got) != 2 || got[0] != `a\nb` || got[1] != "c" {
		t.Fatalf("Lines = %q", got)
	}
	if Lines(nil) != nil {
		t.Fatal("Lines(nil) is not nil")
	}
}

// checkSafe fails when out could make a terminal do something other than
// show it: invalid UTF-8 or an unsafe character (besides line feeds and
// tabs for a block).
func checkSafe(t *testing.T, fn, in, out string, block bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("%s(%q) = %q is not valid UTF-8", fn, in, out)
	}
	for _, r := range out {
		if block && (r == '\n' || r == '\t') {
			continue
		}
		if Unsafe(r) {
			t.Fatalf("%s(%q) = %q still contains %U", fn, in, out, r)
		}
	}
}

func FuzzOutputHasNoControlOrBidiCharacter(f *testing.F) {
	for _, s := range []string{"", "plain", "a\nb\r\tc", "\x1b[31m", "\u202e\u2066", "\u0085\u009b", "\xff\xc3", "李雷\u200d", "\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		line, block := Line(in), Block(in)
		checkSafe(t, "Line", in, line, false)
		checkSafe(t, "Block", in, block, true)
		// Block's line breaks are exactly the input's: it adds none.
		if strings.Count(block, "\n") != strings.Count(in, "\n") {
			t.Fatalf("Block(%q) = %q changed the number of lines", in, block)
		}
		if strings.Contains(line, "\n") {
			t.Fatalf("Line(%q) = %q spans lines", in, line)
		}
		// Text with nothing to escape is returned as it is.
		safe := utf8.ValidString(in)
		for _, r := range in {
			safe = safe && !Unsafe(r)
		}
		if safe && (line != in || block != in) {
			t.Fatalf("safe text %q changed: Line %q, Block %q", in, line, block)
		}
		// Escaping is idempotent: its output has nothing left to escape.
		if Line(line) != line || Block(block) != block {
			t.Fatalf("escaping %q twice changed it", in)
		}
	})
}
