package sections

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
)

// RuleError is a violated spec rule. Rule is a stable slug (tests and the
// relay's OK messages use it); Msg says what was wrong.
type RuleError struct {
	Rule string
	Msg  string
}

func (e *RuleError) Error() string { return e.Rule + ": " + e.Msg }

func ruleErr(rule, format string, a ...any) error {
	return &RuleError{Rule: rule, Msg: fmt.Sprintf(format, a...)}
}

const nilUUID = "00000000-0000-0000-0000-000000000000"

// IsUUID reports whether s is a lowercase hyphenated UUID (8-4-4-4-12). The
// AAD binds the "lowercase UUID", so uppercase is not accepted anywhere.
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isLowerHex(c) {
				return false
			}
		}
	}
	return true
}

// checkID requires a lowercase, non-nil UUID.
func checkID(what, s string) error {
	if !IsUUID(s) {
		return ruleErr("uuid", "%s %q is not a lowercase UUID", what, s)
	}
	if s == nilUUID {
		return ruleErr("uuid-nil", "%s is the nil UUID", what)
	}
	return nil
}

// IsHex64 reports whether s is 64 lowercase hex characters (pubkeys, event
// ids, SHA-256 digests).
func IsHex64(s string) bool { return nostr.IsValid32ByteHex(s) }

func checkHex64(what, s string) error {
	if !IsHex64(s) {
		return ruleErr("hex64", "%s %q is not 64 lowercase hex characters", what, s)
	}
	return nil
}

func isLowerHex(c byte) bool { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') }
