// Package projects is the client side of NIP-PC collaborative Project State:
// project coordinates, the owner-signed kind 30621 identity, the relay-signed
// kind 30623 Project State and the kind 47010 related-channel change command.
// It does no I/O: callers fetch events and pass them in.
package projects

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nbd-wtf/go-nostr"
)

// Kinds defined or used by NIP-PC.
const (
	KindIdentity = 30621 // NIP-MP owner-signed Project identity
	KindState    = 30623 // relay-signed Project State (shared number with NIP-SW)
	KindChange   = 47010 // related-channel change command
	KindRepo     = 30617 // NIP-34 repository announcement (Project members)
)

// MaxDBytes bounds a Project `d` value (nip-pc.md "Project State Event":
// "even when the Project's own d approaches its 1024-byte bound").
const MaxDBytes = 1024

// Coordinate is a canonical Project coordinate 30621:<owner>:<d>.
type Coordinate struct {
	Owner string // 64 lowercase hex
	D     string // non-empty, at most 1024 bytes, verbatim
}

// ErrCoordinate marks every coordinate parse failure.
var ErrCoordinate = errors.New("invalid project coordinate")

// ParseCoordinate parses "30621:<64 lowercase hex>:<d>". It splits on the first
// two colons only, so a d containing colons stays addressable (nip-pc.md
// "Project Coordinate").
func ParseCoordinate(s string) (Coordinate, error) {
	kind, rest, ok := strings.Cut(s, ":")
	if !ok {
		return Coordinate{}, fmt.Errorf("%w %q: want 30621:<owner-hex>:<d>", ErrCoordinate, s)
	}
	if kind != "30621" {
		return Coordinate{}, fmt.Errorf("%w %q: kind must be the literal 30621", ErrCoordinate, s)
	}
	owner, d, ok := strings.Cut(rest, ":")
	if !ok {
		return Coordinate{}, fmt.Errorf("%w %q: want 30621:<owner-hex>:<d>", ErrCoordinate, s)
	}
	c := Coordinate{Owner: owner, D: d}
	if err := c.Validate(); err != nil {
		return Coordinate{}, err
	}
	return c, nil
}

// Validate checks the owner is exactly 64 lowercase hex and d is non-empty
// UTF-8 of at most 1024 bytes.
func (c Coordinate) Validate() error {
	if !IsLowerHex64(c.Owner) {
		return fmt.Errorf("%w: owner %q must be exactly 64 lowercase hex characters", ErrCoordinate, c.Owner)
	}
	if c.D == "" {
		return fmt.Errorf("%w: the project d value is empty", ErrCoordinate)
	}
	if len(c.D) > MaxDBytes {
		return fmt.Errorf("%w: the project d value is %d bytes, more than %d", ErrCoordinate, len(c.D), MaxDBytes)
	}
	// The projection address hashes the UTF-8 coordinate, and event tags are
	// JSON strings: bytes that are not UTF-8 could not survive either.
	if !utf8.ValidString(c.D) {
		return fmt.Errorf("%w: the project d value is not valid UTF-8", ErrCoordinate)
	}
	return nil
}

// String is the canonical coordinate, as carried in `a` tags.
func (c Coordinate) String() string { return "30621:" + c.Owner + ":" + c.D }

// Address is the kind 30623 `d` value: lowercase SHA-256 hex of the UTF-8 coordinate.
func (c Coordinate) Address() string {
	sum := sha256.Sum256([]byte(c.String()))
	return hex.EncodeToString(sum[:])
}

// IsLowerHex64 reports whether s is exactly 64 lowercase hexadecimal characters.
func IsLowerHex64(s string) bool { return nostr.IsValid32ByteHex(s) }
