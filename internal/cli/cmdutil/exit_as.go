package cmdutil

import (
	"errors"
	"strings"
)

// AsExitError is err as an exitError: cobra's own usage errors (unknown
// command or flag, wrong number of arguments) are exit 2, anything else
// unexpected exit 1.
func AsExitError(err error) *ExitError {
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee
	}
	ee = &ExitError{Code: ExitFailure, Kind: "failure", Err: err}
	if strings.HasPrefix(err.Error(), "unknown command") || strings.HasPrefix(err.Error(), "unknown flag") ||
		strings.Contains(err.Error(), "arg(s)") {
		ee.Code, ee.Kind = ExitUsage, "usage"
	}
	return ee
}
