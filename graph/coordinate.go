// Package graph is roster's pure maintainer model: role records, announcements,
// reciprocal fixpoints, lead resolution, history precedence, health and
// authorization. It does no I/O and reads no clock; time is a parameter.
package graph

import (
	"fmt"
	"strings"
)

// Kinds of the NIP-34 events roster reads.
const (
	KindAnnouncement = 30617
	KindState        = 30618
	KindDeletion     = 5
)

// Coordinate names one maintainer-scoped repository address:
// kind:pubkey:identifier. Pubkey is 64 lowercase hex.
type Coordinate struct {
	Kind       int    `json:"kind"`
	Pubkey     string `json:"pubkey"`
	Identifier string `json:"identifier"`
}

// NewCoordinate returns the kind 30617 coordinate of pubkey's announcement of identifier.
func NewCoordinate(pubkey, identifier string) Coordinate {
	return Coordinate{Kind: KindAnnouncement, Pubkey: pubkey, Identifier: identifier}
}

// ATag is the NIP-01 address "kind:pubkey:d" used in `a` tags.
func (c Coordinate) ATag() string {
	return fmt.Sprintf("%d:%s:%s", c.Kind, c.Pubkey, c.Identifier)
}

func (c Coordinate) String() string { return c.ATag() }

// Valid reports whether the coordinate names a kind, a 64-hex pubkey and an identifier.
func (c Coordinate) Valid() bool {
	return c.Kind > 0 && isLowerHex64(c.Pubkey) && c.Identifier != ""
}

// ParseATag parses "kind:pubkey:d". The identifier may itself contain colons.
func ParseATag(s string) (Coordinate, error) {
	parts := strings.SplitN(s, ":", 3)
	if len(parts) != 3 {
		return Coordinate{}, fmt.Errorf("address %q is not kind:pubkey:identifier", s)
	}
	var kind int
	if _, err := fmt.Sscanf(parts[0], "%d", &kind); err != nil || fmt.Sprint(kind) != parts[0] {
		return Coordinate{}, fmt.Errorf("address %q has a non-numeric kind", s)
	}
	c := Coordinate{Kind: kind, Pubkey: parts[1], Identifier: parts[2]}
	if !c.Valid() {
		return Coordinate{}, fmt.Errorf("address %q needs a 64-hex lowercase pubkey and a non-empty identifier", s)
	}
	return c, nil
}
