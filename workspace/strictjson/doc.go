// Package strictjson implements the canonical JSON profile
// `nip-sw-canonical-json-v1` and the strict typed decoding that NIP-SW and
// NIP-PC require before anything is hashed, signed or applied.
//
// Canonical form: object keys sorted by Unicode code point (byte order of
// UTF-8, which is not the UTF-16 order JavaScript uses), arrays in order, no
// insignificant whitespace, integers only, strings as raw UTF-8 with only `"`,
// `\` and control characters escaped (no HTML escaping, U+2028/U+2029 raw).
//
// Strict decoding rejects, at every depth: invalid UTF-8 and lone surrogates,
// duplicate keys (compared after unescaping), keys that match no struct field
// exactly (encoding/json would match case-insensitively), missing fields that
// are not marked optional, null where the Go type cannot hold it, fractions and
// exponents, and anything after the top-level value.
//
// A struct field is optional when its json tag has `omitempty` or `omitzero`
// or the field carries `strict:"optional"`; every other field is required.
package strictjson

import (
	"crypto/sha256"
	"encoding/hex"
)

// Profile names the canonical JSON profile this package implements.
const Profile = "nip-sw-canonical-json-v1"

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 256

// SHA256Hex is the lowercase hex SHA-256 of exact bytes (canonical bytes, for
// command and source hashes).
func SHA256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
