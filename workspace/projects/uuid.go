package projects

import (
	"fmt"
	"strings"
)

// IsCanonicalUUID reports whether s is a UUID in canonical text form: 36
// characters, lowercase hex in 8-4-4-4-12 groups.
func IsCanonicalUUID(s string) bool {
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

// NormalizeUUID accepts a channel UUID typed by a person (any case) and returns
// its canonical lowercase form.
func NormalizeUUID(s string) (string, error) {
	l := strings.ToLower(strings.TrimSpace(s))
	if !IsCanonicalUUID(l) {
		return "", fmt.Errorf("channel %q is not a UUID like 11111111-1111-4111-8111-111111111111", s)
	}
	return l, nil
}
