package projects

import (
	"errors"
	"fmt"
	"strconv"
)

// MaxRevision is the largest revision a signed 64-bit counter can hold.
const MaxRevision = 9223372036854775807

// ErrRevision marks a revision string that is not canonical.
var ErrRevision = errors.New("invalid revision")

// ParseRevision parses a canonical base-10 revision in 1..9223372036854775807:
// digits only, no sign and no leading zero (nip-pc.md "Project State Event";
// the same rule holds for `expected-revision`).
func ParseRevision(s string) (int64, error) {
	if s == "" {
		return 0, fmt.Errorf("%w: empty", ErrRevision)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("%w %q: digits only, no sign", ErrRevision, s)
		}
	}
	if s[0] == '0' {
		return 0, fmt.Errorf("%w %q: must be at least 1, with no leading zero", ErrRevision, s)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w %q: larger than %d", ErrRevision, s, int64(MaxRevision))
	}
	return n, nil
}

// FormatRevision is the canonical text of a revision.
func FormatRevision(n int64) string { return strconv.FormatInt(n, 10) }
