// Package channelid is the one rule for channel (and section) UUIDs in
// NIP-SW and NIP-PC: canonical text form (36 characters, lowercase hex in
// 8-4-4-4-12 groups, as the AAD and the canonical JSON bind them) and never
// the nil UUID, which names no channel.
package channelid

import (
	"fmt"
	"strings"
)

// Nil is the nil UUID: well formed, but it names nothing.
const Nil = "00000000-0000-0000-0000-000000000000"

// IsCanonical reports whether s is a UUID in canonical text form. Uppercase
// is not canonical: the same channel must hash and encrypt to the same bytes.
func IsCanonical(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch i {
		case 8, 13, 18, 23:
			if b != '-' {
				return false
			}
		default:
			if !(b >= '0' && b <= '9' || b >= 'a' && b <= 'f') {
				return false
			}
		}
	}
	return true
}

// Valid reports whether s is canonical and not the nil UUID: the rule for
// every UUID roster reads from the wire or writes to it.
func Valid(s string) bool { return IsCanonical(s) && s != Nil }

// Parse accepts a channel UUID typed by a person (any case, surrounding
// space) and returns its canonical form; the nil UUID is refused.
func Parse(s string) (string, error) {
	l := strings.ToLower(strings.TrimSpace(s))
	if !IsCanonical(l) {
		return "", fmt.Errorf("channel %q is not a UUID like 11111111-1111-4111-8111-111111111111", s)
	}
	if l == Nil {
		return "", fmt.Errorf("channel %q is the nil UUID, which names no channel", s)
	}
	return l, nil
}
