package strictjson

import (
	"errors"
	"fmt"
)

// Sentinel causes; test with errors.Is.
var (
	ErrSyntax       = errors.New("invalid JSON")
	ErrDuplicateKey = errors.New("duplicate key")
	ErrUnknownField = errors.New("unknown field")
	ErrMissingField = errors.New("missing field")
	ErrNonInteger   = errors.New("non-integer number")
	ErrIntegerRange = errors.New("integer outside the signed 64-bit range")
	ErrTrailingData = errors.New("trailing data after the JSON value")
	ErrNull         = errors.New("null not allowed")
	ErrType         = errors.New("wrong JSON type")
	ErrTooDeep      = errors.New("nesting too deep")
)

// Error locates a rejection: Path is a JSON path such as $.sections[0].id and
// Offset the byte offset in the input (-1 when the error is structural).
type Error struct {
	Err    error
	Path   string
	Offset int
	Detail string
}

func (e *Error) Error() string {
	msg := "strictjson: " + e.Err.Error()
	if e.Detail != "" {
		msg += " " + e.Detail
	}
	if e.Path != "" {
		msg += " at " + e.Path
	}
	if e.Offset >= 0 {
		msg += fmt.Sprintf(" (byte %d)", e.Offset)
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }
