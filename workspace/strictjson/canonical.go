package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"unicode/utf8"
)

// Canonical encodes v (a Go value that encoding/json can marshal) in the
// canonical profile. Fractions are rejected, not rounded.
func Canonical(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("strictjson: marshal: %w", err)
	}
	return CanonicalizeRaw(buf.Bytes())
}

// CanonicalizeRaw parses JSON text strictly (duplicate keys, fractions,
// invalid UTF-8, trailing data are errors) and returns its canonical bytes.
func CanonicalizeRaw(data []byte) ([]byte, error) {
	v, err := parse(data)
	if err != nil {
		return nil, err
	}
	return appendCanonical(make([]byte, 0, len(data)), v), nil
}

func appendCanonical(out []byte, v value) []byte {
	switch v.kind {
	case kindNull:
		return append(out, "null"...)
	case kindBool:
		if v.b {
			return append(out, "true"...)
		}
		return append(out, "false"...)
	case kindNumber:
		return append(out, v.s...)
	case kindString:
		return appendString(out, v.s)
	case kindArray:
		out = append(out, '[')
		for i, e := range v.arr {
			if i > 0 {
				out = append(out, ',')
			}
			out = appendCanonical(out, e)
		}
		return append(out, ']')
	default:
		members := make([]member, len(v.members))
		copy(members, v.members)
		// Byte order of valid UTF-8 is Unicode code-point order.
		sort.Slice(members, func(i, j int) bool { return members[i].key < members[j].key })
		out = append(out, '{')
		for i, m := range members {
			if i > 0 {
				out = append(out, ',')
			}
			out = appendString(out, m.key)
			out = append(out, ':')
			out = appendCanonical(out, m.val)
		}
		return append(out, '}')
	}
}

const hexDigits = "0123456789abcdef"

// appendString escapes only what JSON requires: `"`, `\` and U+0000..U+001F
// (with the short forms \b \t \n \f \r). Everything else is raw UTF-8.
func appendString(out []byte, s string) []byte {
	out = append(out, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			_, size := utf8.DecodeRuneInString(s[i:])
			out = append(out, s[i:i+size]...)
			i += size
			continue
		}
		switch c {
		case '"':
			out = append(out, '\\', '"')
		case '\\':
			out = append(out, '\\', '\\')
		case '\b':
			out = append(out, '\\', 'b')
		case '\f':
			out = append(out, '\\', 'f')
		case '\n':
			out = append(out, '\\', 'n')
		case '\r':
			out = append(out, '\\', 'r')
		case '\t':
			out = append(out, '\\', 't')
		default:
			if c < 0x20 {
				out = append(out, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			} else {
				out = append(out, c)
			}
		}
		i++
	}
	return append(out, '"')
}
