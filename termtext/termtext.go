// Package termtext makes untrusted text safe to print on a terminal.
//
// Text from relays and events (names, descriptions, URLs, relay reasons,
// NIP-11 fields) reaches roster's human output. Printed raw, a control
// character or an escape sequence in it is acted on by the terminal instead
// of shown: a carriage return or a line feed forges a line ("lead npub1...
// (explicit)"), an ESC sequence moves the cursor, recolours or clears, and a
// bidi override reorders what follows. termtext replaces each such character
// with a visible escape (`\x1b`, `\n`, `\u202e`) and leaves every other
// character, printable text in any script included, as it is.
//
// What is escaped:
//   - C0 controls U+0000–U+001F and DEL U+007F: `\n`, `\r`, `\t` by name,
//     the others as `\xHH` (ESC is `\x1b`). Block keeps line feeds and tabs.
//   - C1 controls U+0080–U+009F (CSI U+009B starts an escape sequence on
//     some terminals, NEL U+0085 is a line break): `\u0085`.
//   - The line and paragraph separators U+2028 and U+2029, which some
//     terminals and viewers break lines at.
//   - The bidi controls, which reorder the text that follows them: the
//     embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069,
//     the marks U+200E, U+200F and U+061C, and the deprecated format
//     controls U+206A–U+206F (symmetric swapping, shaping, digit shapes).
//   - The invisible characters that hide inside a name or before a key:
//     the zero-width space U+200B, the word joiner U+2060 and the invisible
//     operators U+2061–U+2064, the byte order mark / zero-width no-break
//     space U+FEFF, and the zero-width non-joiner and joiner U+200C and
//     U+200D except between two letters or symbols of a script that joins
//     with them (Arabic and Indic writing, emoji sequences such as
//     👩\u200d💻): after or before an ASCII, Latin, Greek or Cyrillic
//     character, or at either end, they only hide a difference.
//   - Bytes that are not valid UTF-8: `\xHH` each.
//
// A backslash is not escaped: `\x1b` in the output may be an escaped ESC or
// the four characters a relay sent. Human output only needs to be harmless
// and readable; JSON output carries the exact text.
package termtext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s safe to print as one field of one line: every character
// listed in the package documentation, line feeds, carriage returns and
// tabs included, becomes a visible escape.
func Line(s string) string { return escape(s, false) }

// Block returns s safe to print as a message of several lines: as Line, but
// line feeds and tabs stay. Use it only for text whose line breaks are
// roster's own; a line break inside relay text would still start a line.
func Block(s string) string { return escape(s, true) }

// Lines is Line of each string.
func Lines(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Line(s)
	}
	return out
}

// Unsafe reports whether r is one of the characters Line escapes.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x2028 && r <= 0x202e:
		return true
	case r >= 0x2066 && r <= 0x206f:
		return true
	case r == 0x200b, r >= 0x2060 && r <= 0x2064, r == 0xfeff:
		return true
	}
	return false
}

// joiner reports whether r is the zero-width non-joiner or joiner, which
// Line keeps only where a script needs them (joins).
func joiner(r rune) bool { return r == 0x200c || r == 0x200d }

// joins reports whether a joiner between prev and next does visible work:
// both are letters, marks or symbols outside ASCII, Latin, Greek and
// Cyrillic (where a joiner changes nothing a reader sees).
func joins(prev, next rune) bool {
	ok := func(r rune) bool {
		if r < 0x80 || r == utf8.RuneError || joiner(r) {
			return false
		}
		if unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic) {
			return false
		}
		return unicode.In(r, unicode.L, unicode.M, unicode.So, unicode.Sk) || r >= 0x1f000
	}
	return ok(prev) && ok(next)
}

// neighbours are the runes before byte offset i and after the rune of
// size at i (utf8.RuneError at either end).
func neighbours(s string, i, size int) (rune, rune) {
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	next, _ := utf8.DecodeRuneInString(s[i+size:])
	return prev, next
}

func escape(s string, block bool) string {
	if clean(s, block) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case block && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		case joiner(r) && !joins(neighbours(s, i, size)):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean reports whether s needs no escape, so the common case allocates
// nothing.
func clean(s string, block bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if block && (c == '\n' || c == '\t') {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || Unsafe(r) {
			return false
		}
		if joiner(r) && !joins(neighbours(s, i, size)) {
			return false
		}
		i += size
	}
	return true
}
