package termtext

import (
	"strings"
	"unicode"
)

// Names are labels anyone can claim, and two names a reader cannot tell
// apart are the same name to them: "alice", "alice\u200b" (a zero-width
// space after it), "аlice" (a Cyrillic а) and "ALICE" all read as alice.
// Skeleton is the form such names are compared in, a simpler fold than
// Unicode's confusable skeleton (UTS #39) that covers what a terminal
// shows alike:
//   - invisible characters are dropped: format characters (category Cf:
//     zero-width space, joiners, word joiner, byte order mark, bidi
//     controls, soft hyphen), variation selectors, the combining grapheme
//     joiner and the Hangul fillers, and every control character;
//   - runs of spaces of any kind become one ASCII space, and the ends are
//     trimmed;
//   - fullwidth ASCII becomes ASCII, and the Cyrillic and Greek letters
//     that look like Latin ones become those (а→a, о→o, Ι→I, ρ→p, ...);
//   - case is folded (so ALICE is alice), digit 1 and | become l, digit 0
//     becomes o, and "rn" becomes m.

// Skeleton is s folded as described above.
func Skeleton(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r):
			space = b.Len() > 0
			continue
		case invisible(r):
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if r >= 0xff01 && r <= 0xff5e {
			r -= 0xfee0 // fullwidth ASCII
		}
		if l, ok := lookAlike[r]; ok {
			r = l
		}
		r = unicode.ToLower(r)
		if l, ok := lookAlike[r]; ok {
			r = l
		}
		switch r {
		case '1', '|':
			r = 'l'
		case '0':
			r = 'o'
		}
		b.WriteRune(r)
	}
	return strings.ReplaceAll(b.String(), "rn", "m")
}

// Deceptive reports whether s carries what only hides a difference from
// another name: an invisible character (as Skeleton drops them), fullwidth
// ASCII, or Latin letters mixed with Greek or Cyrillic ones. A name in one
// script (Ольга, Jürgen, 李雷) is not deceptive, nor is a joiner where its
// script needs it (👩\u200d💻).
func Deceptive(s string) bool {
	latin, other := false, false
	for i, r := range s {
		switch {
		case joiner(r) && joins(neighbours(s, i, len(string(r)))):
			// a joiner doing its work (Persian, Indic, emoji sequences)
		case invisible(r) && !unicode.IsSpace(r), r >= 0xff01 && r <= 0xff5e:
			return true
		case unicode.Is(unicode.Latin, r):
			latin = true
		case unicode.In(r, unicode.Greek, unicode.Cyrillic):
			other = true
		}
	}
	return latin && other
}

// invisible: characters a terminal shows as nothing (or nothing
// distinguishable) inside a name.
func invisible(r rune) bool {
	switch {
	case unicode.Is(unicode.Cf, r), unicode.IsControl(r):
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef: // variation selectors
		return true
	case r == 0x034f, r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0, r == 0x2800:
		return true
	}
	return false
}

// lookAlike maps Cyrillic and Greek letters to the Latin letters they are
// drawn like (before case folding: capitals to capitals).
var lookAlike = map[rune]rune{
	// Cyrillic capitals
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T',
	'Х': 'X', 'У': 'Y', 'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'Ԛ': 'Q', 'Ԝ': 'W', 'Ӏ': 'l',
	// Cyrillic small letters
	'а': 'a', 'с': 'c', 'е': 'e', 'һ': 'h', 'і': 'i', 'ј': 'j', 'ӏ': 'l', 'о': 'o', 'р': 'p', 'ԛ': 'q',
	'ѕ': 's', 'ԝ': 'w', 'х': 'x', 'у': 'y', 'ԁ': 'd', 'ѵ': 'v', 'ү': 'y', 'ɡ': 'g',
	// Greek capitals
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O',
	'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	// Greek small letters
	'α': 'a', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'υ': 'u', 'χ': 'x', 'ϲ': 'c', 'ϳ': 'j',
}
