package main

import (
	"fmt"

	"github.com/roster-cli/roster/suggest"
)

// Exit codes, as docs/exit-codes.md documents them.
const (
	exitOK         = 0
	exitFailure    = 1 // unexpected failure
	exitUsage      = 2 // bad flag, argument, npub or coordinate; no signer
	exitRefused    = 3 // refused by a safety check; nothing was published
	exitIncomplete = 4 // not enough evidence; nothing was published
	exitUnhealthy  = 5 // repo health found errors
	exitUnverified = 6 // published, but read-back did not complete
)

// exitError carries an exit code and, for --json, a machine-readable body.
type exitError struct {
	Code int
	// Kind is the stable machine code of the error ("usage", "no-signer", ...).
	Kind string
	Err  error
	// Commands are what the user can run next, rendered with the user's
	// selectors when printed.
	Commands []suggest.Command
	// Details are structured facts for --json (people, coordinates, refs).
	Details map[string]any
	// Printed is true when the command already rendered this error itself.
	Printed bool
}

func (e *exitError) Error() string { return e.Err.Error() }
func (e *exitError) Unwrap() error { return e.Err }

func usageErr(format string, a ...any) *exitError {
	return &exitError{Code: exitUsage, Kind: "usage", Err: fmt.Errorf(format, a...)}
}
