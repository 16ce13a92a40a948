package termui

import (
	"strings"

	"github.com/rivo/uniseg"
)

// Width is how many terminal columns text takes: the widest of its lines,
// escape sequences (such as a Style's) taking none, and each grapheme
// cluster as wide as a terminal shows it (two for CJK and most emoji,
// none for a combining mark or a zero-width space).
func Width(text string) int {
	widest := 0
	for _, l := range strings.Split(text, "\n") {
		widest = max(widest, uniseg.StringWidth(stripEscapes(l)))
	}
	return widest
}

// stripEscapes drops the terminal escape sequences from s: CSI (ESC [
// parameters, final byte), OSC, DCS, SOS, PM and APC strings (ended by BEL
// or ESC \), and the two-byte ESC sequences, a character-set designation
// taking its one further byte. Control characters other than ESC stay: they
// take no column (uniseg counts them as none).
func stripEscapes(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != 0x1b {
			b.WriteByte(s[i])
			i++
			continue
		}
		i++ // ESC
		if i >= len(s) {
			break
		}
		switch c := s[i]; {
		case c == '[':
			i++
			for i < len(s) && (s[i] < 0x40 || s[i] > 0x7e) {
				i++
			}
			i++ // final byte
		case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
			i++
			for i < len(s) {
				if s[i] == 0x07 {
					i++
					break
				}
				if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
					i += 2
					break
				}
				i++
			}
		case c >= 0x20 && c <= 0x2f: // intermediate: ESC ( B and the like
			i += 2
		default:
			i++
		}
	}
	return b.String()
}
