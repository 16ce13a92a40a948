// Package failure is the one failure type of roster's pipelines
// (membership, statepub, eventcheck, the workspace pipelines): a class that
// says how the command ends, a stable machine code, the message, structured
// details and the commands to run next. A pipeline whose failures carry
// more facts (what was published, which relays) embeds Failure in its own
// type; Of finds the Failure in any of them. The command tree maps a Class
// to an exit code in one function (cmdutil.ExitCode). It imports only
// suggest and the standard library.
package failure

import (
	"errors"

	"github.com/roster-cli/roster/suggest"
)

// Class is what kind of outcome a Failure is; the command tree maps it to
// its exit code.
type Class int

const (
	// Unexpected: could not be done for a reason no check names (exit 1).
	Unexpected Class = iota
	// Usage: an argument, or the place it was run, does not fit (exit 2).
	Usage
	// Refused: a safety check or the relay refused it; nothing was
	// published or committed (exit 3).
	Refused
	// Incomplete: not enough evidence (a relay did not answer, nothing
	// found); nothing was published (exit 4).
	Incomplete
	// Unverified: published, or partly published, but not verified (exit 6).
	Unverified
	// Interrupted: an interrupt stopped it before anything was sent (exit
	// 130).
	Interrupted
)

// String is the class as docs/exit-codes.md says it.
func (c Class) String() string {
	switch c {
	case Usage:
		return "usage"
	case Refused:
		return "refused"
	case Incomplete:
		return "incomplete"
	case Unverified:
		return "unverified"
	case Interrupted:
		return "interrupted"
	}
	return "unexpected"
}

// Failure is a pipeline's refusal or failure, with what a caller needs to
// render it.
type Failure struct {
	Class Class
	// Code is the stable machine code ("not-authorized", "conflict",
	// "concurrent-change", ...), the `code` of a --json error.
	Code    string
	Msg     string
	Details map[string]any
	// Next are the commands to run next, in order; the caller renders them
	// with the user's selectors.
	Next []suggest.Command
	// Err is the underlying cause, if any.
	Err error
}

func (f *Failure) Error() string { return f.Msg }
func (f *Failure) Unwrap() error { return f.Err }

// Base is f itself; a type that embeds Failure answers with its embedded
// one (the method is promoted), which is how Of finds it.
func (f *Failure) Base() *Failure { return f }

// Of is the Failure in err's chain, directly or embedded in a pipeline's
// own failure type; nil when there is none.
func Of(err error) *Failure {
	var b interface{ Base() *Failure }
	if errors.As(err, &b) {
		return b.Base()
	}
	return nil
}

// SignerError is the signer failing to give its key or a signature: every
// pipeline returns it for that, and the caller renders it as every other
// signer failure.
type SignerError struct{ Err error }

func (e *SignerError) Error() string { return e.Err.Error() }
func (e *SignerError) Unwrap() error { return e.Err }

// Signed wraps a signer failure; nil stays nil.
func Signed(err error) error {
	if err == nil {
		return nil
	}
	return &SignerError{Err: err}
}
