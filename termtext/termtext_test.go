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
		for i, r := range in {
			safe = safe && !Unsafe(r) && (!joiner(r) || joins(neighbours(in, i, utf8.RuneLen(r))))
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

func TestLineEscapesInvisibleCharactersThatHideADifference(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"zero-width space after a name", "alice\u200b", `alice\u200b`},
		{"zero-width space before a key", "\u200bnpub1abc", `\u200bnpub1abc`},
		{"word joiner", "al\u2060ice", `al\u2060ice`},
		{"invisible operators", "a\u2061\u2064b", `a\u2061\u2064b`},
		{"byte order mark", "\ufeffalice", `\ufeffalice`},
		{"zero-width non-joiner between Latin letters", "ali\u200cce", `ali\u200cce`},
		{"zero-width joiner at the end", "alice\u200d", `alice\u200d`},
		{"zero-width joiner after Cyrillic", "о\u200dk", `о\u200dk`},
		{"the joiners Persian and emoji need stay", "می\u200cخواهم 👩\u200d💻", "می\u200cخواهم 👩\u200d💻"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Line(c.in); got != c.want {
				t.Fatalf("Line(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestSkeletonFoldsNamesAReaderCannotTellApart(t *testing.T) {
	same := [][]string{
		{"alice", "Alice", "ALICE", " alice ", "alice\u200b", "\u200balice", "al\u2060ice", "\ufeffalice", "аlice", "alicе", "ａｌｉｃｅ", "al\u200dice"},
		{"bob smith", "bob  smith", "bob\u00a0smith", "Bob\tSmith"},
		{"modern", "modem"},
		{"paypal", "pаypаl", "рaypal"},
		{"l33t0", "|33to", "133tO"},
		{"npub1abc", "\u200bnpub1abc", "\u2060npub1abc"},
	}
	for _, group := range same {
		want := Skeleton(group[0])
		for _, n := range group[1:] {
			if got := Skeleton(n); got != want {
				t.Errorf("Skeleton(%q) = %q, want %q (as %q)", n, got, want, group[0])
			}
		}
	}
	differ := [][2]string{{"alice", "alicia"}, {"Ольга", "Olga"}, {"bob", "rob"}, {"李雷", "韩梅梅"}}
	for _, d := range differ {
		if Skeleton(d[0]) == Skeleton(d[1]) {
			t.Errorf("Skeleton(%q) == Skeleton(%q) = %q", d[0], d[1], Skeleton(d[0]))
		}
	}
}

func TestDeceptiveNamesAreInvisibleOrMixedScript(t *testing.T) {
	for _, n := range []string{"alice\u200b", "аlice", "ａlice", "\u200bnpub1abc", "al\u00adice", "pаypal"} {
		if !Deceptive(n) {
			t.Errorf("Deceptive(%q) = false", n)
		}
	}
	for _, n := range []string{"alice", "Ольга", "Jürgen", "李雷", "Ελένη", "bob smith", "👩\u200d💻"} {
		if Deceptive(n) {
			t.Errorf("Deceptive(%q) = true", n)
		}
	}
}
