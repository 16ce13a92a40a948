package sections

import (
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/workspace/channelid"
)

// RuleError is a violated spec rule. Rule is a stable slug (tests and the
// relay's OK messages use it); Msg says what was wrong.
type RuleError struct {
	Rule string
	Msg  string
}

func (e *RuleError) Error() string { return e.Rule + ": " + e.Msg }

// ruleMessage is err's message for a person: a RuleError without its
// slug (the slug is for relays' OK messages and for details.rule).
func ruleMessage(err error) string {
	var re *RuleError
	if errors.As(err, &re) {
		return re.Msg
	}
	return err.Error()
}

func ruleErr(rule, format string, a ...any) error {
	return &RuleError{Rule: rule, Msg: fmt.Sprintf(format, a...)}
}

// IsUUID reports whether s is a lowercase hyphenated UUID (8-4-4-4-12). The
// AAD binds the "lowercase UUID", so uppercase is not accepted anywhere.
func IsUUID(s string) bool { return channelid.IsCanonical(s) }

// checkID requires a lowercase, non-nil UUID (the one rule, channelid).
func checkID(what, s string) error {
	if !channelid.IsCanonical(s) {
		return ruleErr("uuid", "%s %q is not a lowercase UUID", what, s)
	}
	if s == channelid.Nil {
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
