package flatyaml

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// scalarValue is one scalar read from a line: its text, or null for a plain
// "~", "null" and the like.
type scalarValue struct {
	text string
	null bool
}

// scalar reads the scalar that text starts with and returns what follows
// it. In a flow list (flow) a plain scalar ends at ',' or ']'.
func scalar(text string, n int, flow bool) (scalarValue, string, error) {
	switch text[0] {
	case '\'':
		return singleQuoted(text, n)
	case '"':
		return doubleQuoted(text, n)
	}
	return plain(text, n, flow)
}

// plain reads a plain (unquoted) scalar. Its first character may not be
// one that YAML gives another meaning; inside it, ": " would start a
// mapping and " #" a comment (already dropped).
func plain(text string, n int, flow bool) (scalarValue, string, error) {
	switch c := text[0]; {
	case strings.IndexByte("#&*!|>%@`{}", c) >= 0:
		return scalarValue{}, "", &Error{n, fmt.Sprintf("%q starts YAML that roster does not read (an anchor, alias, tag, block scalar or mapping); quote the value", c)}
	case c == '[':
		return scalarValue{}, "", &Error{n, "a list inside a list"}
	case c == ']' || c == ',':
		return scalarValue{}, "", &Error{n, fmt.Sprintf("unexpected %q", c)}
	case c == '?' || c == ':' || (c == '-' && (flow || len(text) == 1 || text[1] == ' ')):
		return scalarValue{}, "", &Error{n, fmt.Sprintf("%q here starts YAML that roster does not read; quote the value", c)}
	}
	end := len(text)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if flow && strings.IndexByte(",]?[{}", c) >= 0 {
			if c != ',' && c != ']' {
				return scalarValue{}, "", &Error{n, fmt.Sprintf("%q inside a list item; quote the value", c)}
			}
			end = i
			break
		}
		if c == '#' && i > 0 && text[i-1] == ' ' {
			end = i
			break
		}
		if c == ':' && (i+1 == len(text) || text[i+1] == ' ' || (flow && strings.IndexByte(",]", text[i+1]) >= 0)) {
			return scalarValue{}, "", &Error{n, "a value with \": \" in it reads as a nested mapping, which roster does not read; quote the value"}
		}
	}
	s := strings.TrimRight(text[:end], " ")
	return scalarValue{text: s, null: isNullWord(s)}, text[end:], nil
}

// singleQuoted reads a single-quoted scalar, where a doubled quote is one
// quote.
func singleQuoted(text string, n int) (scalarValue, string, error) {
	var b strings.Builder
	for i := 1; i < len(text); i++ {
		if text[i] != '\'' {
			b.WriteByte(text[i])
			continue
		}
		if i+1 < len(text) && text[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		return scalarValue{text: b.String()}, text[i+1:], nil
	}
	return scalarValue{}, "", &Error{n, "a quoted value is not closed on its line"}
}

// doubleQuoted reads "...", with YAML's backslash escapes.
func doubleQuoted(text string, n int) (scalarValue, string, error) {
	var b strings.Builder
	for i := 1; i < len(text); i++ {
		c := text[i]
		switch c {
		case '"':
			return scalarValue{text: b.String()}, text[i+1:], nil
		case '\\':
			if i+1 >= len(text) {
				return scalarValue{}, "", &Error{n, "a quoted value is not closed on its line"}
			}
			i++
			if r, ok := simpleEscape(text[i]); ok {
				b.WriteString(r)
				continue
			}
			width := 0
			switch text[i] {
			case 'x':
				width = 2
			case 'u':
				width = 4
			case 'U':
				width = 8
			}
			if width == 0 || i+width >= len(text) {
				return scalarValue{}, "", &Error{n, fmt.Sprintf("the escape \\%c", text[i])}
			}
			code, err := strconv.ParseUint(text[i+1:i+1+width], 16, 32)
			if err != nil || !utf8.ValidRune(rune(code)) || strings.ContainsAny(text[i+1:i+1+width], "+-_") {
				return scalarValue{}, "", &Error{n, fmt.Sprintf("the escape \\%s", text[i:i+1+width])}
			}
			b.WriteRune(rune(code))
			i += width
		default:
			b.WriteByte(c)
		}
	}
	return scalarValue{}, "", &Error{n, "a quoted value is not closed on its line"}
}

// simpleEscape is YAML's one-character escape c in double quotes (a
// switch, not a map: nothing to build when the package starts).
func simpleEscape(c byte) (string, bool) {
	switch c {
	case '0':
		return "\x00", true
	case 'a':
		return "\a", true
	case 'b':
		return "\b", true
	case 't':
		return "\t", true
	case 'n':
		return "\n", true
	case 'v':
		return "\v", true
	case 'f':
		return "\f", true
	case 'r':
		return "\r", true
	case 'e':
		return "\x1b", true
	case ' ', '"', '\'', '\\':
		return string(c), true
	case 'N':
		return "\u0085", true
	case '_':
		return "\u00a0", true
	case 'L':
		return "\u2028", true
	case 'P':
		return "\u2029", true
	}
	return "", false
}

// isNullWord is whether a plain scalar is YAML's null.
func isNullWord(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// isBoolWord is whether a plain scalar is one of YAML 1.2's booleans.
func isBoolWord(s string) bool {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return true
	}
	return false
}
