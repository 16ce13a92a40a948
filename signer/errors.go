package signer

import (
	"errors"
	"fmt"
)

// A new passphrase is typed twice; these are the ways that input can be
// refused. They are the user's input, so the command layer can map them to
// a usage error with the command to retry instead of an unexpected failure.
var (
	ErrEmptyPassphrase    = errors.New("an empty passphrase would leave the key unprotected; choose a passphrase")
	ErrPassphraseMismatch = errors.New("the passphrases do not match; nothing was stored")
)

// ErrBunkerUnreachable marks a bunker failure of the network: no bunker
// relay could be reached, none took the request, or the bunker did not
// answer in time (it may be offline). A bunker that answered and refused is
// not unreachable.
var ErrBunkerUnreachable = errors.New("the bunker could not be reached")

// BunkerConnectError is a failed `login --bunker`: the NIP-46 connect or
// get_public_key did not succeed. Bunker is the redacted URL (never the
// connection secret), Relays the relays roster talked to the bunker over.
type BunkerConnectError struct {
	Bunker string
	Relays []string
	Err    error
}

func (e *BunkerConnectError) Error() string {
	return fmt.Sprintf("could not connect to the bunker %s: %v", e.Bunker, e.Err)
}

func (e *BunkerConnectError) Unwrap() error { return e.Err }

// unreachableError is a network failure talking to the bunker: its message
// as formatted, and errors.Is(err, ErrBunkerUnreachable).
type unreachableError struct{ msg string }

func (e *unreachableError) Error() string        { return e.msg }
func (e *unreachableError) Is(target error) bool { return target == ErrBunkerUnreachable }

func unreachable(format string, a ...any) error {
	return &unreachableError{msg: fmt.Sprintf(format, a...)}
}
