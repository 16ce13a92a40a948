package projects

import "github.com/roster-cli/roster/workspace/channelid"

// IsCanonicalUUID reports whether s is a channel UUID roster accepts on the
// wire: canonical lowercase text form and not the nil UUID (channelid's one
// rule, shared with NIP-SW).
func IsCanonicalUUID(s string) bool { return channelid.Valid(s) }

// NormalizeUUID accepts a channel UUID typed by a person (any case) and returns
// its canonical lowercase form; the nil UUID is refused.
func NormalizeUUID(s string) (string, error) { return channelid.Parse(s) }
