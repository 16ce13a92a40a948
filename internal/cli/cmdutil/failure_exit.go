package cmdutil

import "github.com/roster-cli/roster/failure"

// ExitCode is the exit code of a pipeline failure's class: the one place
// the command tree maps the classes of failure.Failure (docs/exit-codes.md).
func ExitCode(c failure.Class) int {
	switch c {
	case failure.Usage:
		return ExitUsage
	case failure.Refused:
		return ExitRefused
	case failure.Incomplete:
		return ExitIncomplete
	case failure.Unverified:
		return ExitUnverified
	case failure.Interrupted:
		return ExitInterrupted
	}
	return ExitFailure
}

// FailureError is f as an exit error: its class's code, its code, message,
// details and next commands.
func FailureError(f *failure.Failure) *ExitError {
	return &ExitError{Code: ExitCode(f.Class), Kind: f.Code, Err: f, Details: f.Details, Commands: f.Next}
}
