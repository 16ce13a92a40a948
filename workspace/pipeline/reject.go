package pipeline

import (
	"fmt"
	"strings"

	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// The machine codes of a relay's OK false to a workspace or project write,
// by the NIP-01 prefix of its message.
const (
	// CodeConflict: "conflict:", another write committed first (exit 3).
	CodeConflict = "conflict"
	// CodeRateLimited: "rate-limited:", the relay asks to retry later
	// (exit 4: nothing committed, not enough evidence either way).
	CodeRateLimited = "rate-limited"
	// CodeRelayRejected: "restricted:" (the relay's policy or authority
	// refused the signer) and any other OK false with a message (exit 3);
	// details.prefix names the prefix.
	CodeRelayRejected = "relay-rejected"
	// CodeUnconfirmed: no OK at all, a timeout, or the relay's own
	// "error:" (exit 6: it may have committed).
	CodeUnconfirmed = "unconfirmed"
)

// Rejection classifies a relay's negative answer rep to a write described
// by what ("the grant command", "the project identity"). It is nil when the
// relay accepted. A reply the relay gave (OK false) means nothing was
// committed: conflict, restricted and every other prefix are refusals (exit
// 3), rate-limited is retried later (exit 4). No reply, a timeout or an
// "error:" reply may hide a commit: unconfirmed (exit 6), and the caller's
// read-back decides.
func Rejection(rep relaypool.PublishReport, relay, what string, details map[string]any, next []suggest.Command) *Error {
	if rep.OK {
		return nil
	}
	msg := rep.Message
	prefix, _, _ := strings.Cut(msg, ":")
	// A relay's machine-readable refusal, even one roster could not follow
	// up (an auth-required whose authentication failed), committed nothing.
	refusal := refusalPrefixes[prefix]
	if msg == "" || prefix == "error" || prefix == "timeout" || !rep.Replied && !refusal {
		return &Error{Class: Unverified, Code: CodeUnconfirmed, Details: details, Next: next,
			Msg: fmt.Sprintf("%s did not confirm %s (%s); read it back to see whether it committed", relay, what, orNoAnswer(msg))}
	}
	switch prefix {
	case "conflict":
		return &Error{Class: Refused, Code: CodeConflict, Details: details, Next: next,
			Msg: fmt.Sprintf("%s refused %s because another change committed first, so nothing changed: %s; read the current state and retry", relay, what, msg)}
	case "rate-limited":
		return &Error{Class: Incomplete, Code: CodeRateLimited, Details: details, Next: next,
			Msg: fmt.Sprintf("%s is rate-limiting writes and refused %s, so nothing changed: %s; retry in a while", relay, what, msg)}
	case "restricted":
		return &Error{Class: Refused, Code: CodeRelayRejected, Details: withPrefix(details, prefix), Next: next,
			Msg: fmt.Sprintf("%s refused %s for this signer, so nothing changed: %s", relay, what, msg)}
	}
	return &Error{Class: Refused, Code: CodeRelayRejected, Details: withPrefix(details, prefix), Next: next,
		Msg: fmt.Sprintf("%s refused %s, so nothing changed: %s", relay, what, msg)}
}

// refusalPrefixes are NIP-01's OK false prefixes that say the relay
// refused the event, plus NIP-PC's conflict.
var refusalPrefixes = map[string]bool{"duplicate": true, "pow": true, "blocked": true, "rate-limited": true,
	"invalid": true, "restricted": true, "auth-required": true, "mute": true, "conflict": true}

func orNoAnswer(msg string) string {
	if msg == "" {
		return "no answer"
	}
	return msg
}

// withPrefix adds the OK message's prefix to a copy of details.
func withPrefix(details map[string]any, prefix string) map[string]any {
	out := make(map[string]any, len(details)+1)
	for k, v := range details {
		out[k] = v
	}
	out["prefix"] = prefix
	return out
}
