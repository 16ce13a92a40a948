package strictjson

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// valueKind is the JSON type of a parsed value.
type valueKind uint8

const (
	kindNull valueKind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k valueKind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// value is a parsed JSON value. Objects keep their members in input order;
// duplicates were already rejected by the parser.
type value struct {
	kind    valueKind
	b       bool
	s       string // string contents, or the integer's canonical digits
	arr     []value
	members []member
}

type member struct {
	key string
	val value
}

// parser is a strict recursive-descent JSON parser (RFC 8259 grammar, plus the
// profile's integer-only rule).
type parser struct {
	data []byte
	pos  int
}

// parse reads exactly one JSON value followed only by whitespace.
func parse(data []byte) (value, error) {
	p := &parser{data: data}
	p.skipSpace()
	v, err := p.value("$", 0)
	if err != nil {
		return value{}, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return value{}, p.fail(ErrTrailingData, "", "")
	}
	return v, nil
}

func (p *parser) fail(cause error, path, detail string) error {
	return &Error{Err: cause, Path: path, Offset: p.pos, Detail: detail}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(path string, depth int) (value, error) {
	if depth > maxDepth {
		return value{}, p.fail(ErrTooDeep, path, "")
	}
	if p.pos >= len(p.data) {
		return value{}, p.fail(ErrSyntax, path, "unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(path, depth)
	case c == '[':
		return p.array(path, depth)
	case c == '"':
		s, err := p.str(path)
		return value{kind: kindString, s: s}, err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(path)
	case c == 't':
		return value{kind: kindBool, b: true}, p.literal("true", path)
	case c == 'f':
		return value{kind: kindBool}, p.literal("false", path)
	case c == 'n':
		return value{kind: kindNull}, p.literal("null", path)
	default:
		return value{}, p.fail(ErrSyntax, path, "unexpected character "+strconv.QuoteRune(rune(c)))
	}
}

func (p *parser) literal(word, path string) error {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return p.fail(ErrSyntax, path, "invalid literal")
	}
	p.pos += len(word)
	return nil
}

func (p *parser) object(path string, depth int) (value, error) {
	p.pos++ // '{'
	v := value{kind: kindObject, members: []member{}}
	seen := map[string]struct{}{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return value{}, p.fail(ErrSyntax, path, "expected a string key")
		}
		keyPos := p.pos
		key, err := p.str(path)
		if err != nil {
			return value{}, err
		}
		childPath := path + "." + key
		if _, dup := seen[key]; dup {
			p.pos = keyPos
			return value{}, p.fail(ErrDuplicateKey, path, strconv.Quote(key))
		}
		seen[key] = struct{}{}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return value{}, p.fail(ErrSyntax, childPath, "expected ':'")
		}
		p.pos++
		p.skipSpace()
		val, err := p.value(childPath, depth+1)
		if err != nil {
			return value{}, err
		}
		v.members = append(v.members, member{key: key, val: val})
		p.skipSpace()
		if p.pos >= len(p.data) {
			return value{}, p.fail(ErrSyntax, path, "unterminated object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return v, nil
		default:
			return value{}, p.fail(ErrSyntax, path, "expected ',' or '}'")
		}
	}
}

func (p *parser) array(path string, depth int) (value, error) {
	p.pos++ // '['
	v := value{kind: kindArray, arr: []value{}}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	for {
		p.skipSpace()
		elem, err := p.value(path+"["+strconv.Itoa(len(v.arr))+"]", depth+1)
		if err != nil {
			return value{}, err
		}
		v.arr = append(v.arr, elem)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return value{}, p.fail(ErrSyntax, path, "unterminated array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return v, nil
		default:
			return value{}, p.fail(ErrSyntax, path, "expected ',' or ']'")
		}
	}
}

// number accepts only -?(0|[1-9][0-9]*); a fraction or exponent is
// ErrNonInteger, and integers outside the signed 64-bit range are
// ErrIntegerRange (every implementation must hold them exactly). "-0" canonicalizes to "0", as every other implementation's
// integer round trip does.
func (p *parser) number(path string) (value, error) {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	if p.pos >= len(p.data) || p.data[p.pos] < '0' || p.data[p.pos] > '9' {
		return value{}, p.fail(ErrSyntax, path, "invalid number")
	}
	if p.data[p.pos] == '0' {
		p.pos++
	} else {
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
		}
	}
	if p.pos < len(p.data) {
		switch p.data[p.pos] {
		case '.', 'e', 'E':
			return value{}, p.fail(ErrNonInteger, path, "")
		case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return value{}, p.fail(ErrSyntax, path, "leading zero")
		}
	}
	digits := string(p.data[start:p.pos])
	if _, err := strconv.ParseInt(digits, 10, 64); err != nil {
		p.pos = start
		return value{}, p.fail(ErrIntegerRange, path, digits)
	}
	if digits == "-0" {
		digits = "0"
	}
	return value{kind: kindNumber, s: digits}, nil
}

// str reads a JSON string, rejecting raw control characters, invalid UTF-8,
// unknown escapes and unpaired surrogates (which encoding/json would silently
// replace with U+FFFD, changing the bytes that get hashed).
func (p *parser) str(path string) (string, error) {
	p.pos++ // opening quote
	var out []byte
	for {
		if p.pos >= len(p.data) {
			return "", p.fail(ErrSyntax, path, "unterminated string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(out), nil
		case c == '\\':
			r, err := p.escape(path)
			if err != nil {
				return "", err
			}
			out = utf8.AppendRune(out, r)
		case c < 0x20:
			return "", p.fail(ErrSyntax, path, "control character in string")
		case c < utf8.RuneSelf:
			out = append(out, c)
			p.pos++
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && size <= 1 {
				return "", p.fail(ErrSyntax, path, "invalid UTF-8")
			}
			out = append(out, p.data[p.pos:p.pos+size]...)
			p.pos += size
		}
	}
}

func (p *parser) escape(path string) (rune, error) {
	p.pos++ // backslash
	if p.pos >= len(p.data) {
		return 0, p.fail(ErrSyntax, path, "unterminated escape")
	}
	c := p.data[p.pos]
	p.pos++
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		r, err := p.hex4(path)
		if err != nil {
			return 0, err
		}
		if utf16.IsSurrogate(r) {
			if r >= 0xDC00 || p.pos+1 >= len(p.data) || p.data[p.pos] != '\\' || p.data[p.pos+1] != 'u' {
				return 0, p.fail(ErrSyntax, path, "unpaired surrogate")
			}
			p.pos += 2
			lo, err := p.hex4(path)
			if err != nil {
				return 0, err
			}
			combined := utf16.DecodeRune(r, lo)
			if combined == utf8.RuneError {
				return 0, p.fail(ErrSyntax, path, "unpaired surrogate")
			}
			return combined, nil
		}
		return r, nil
	default:
		return 0, p.fail(ErrSyntax, path, "invalid escape")
	}
}

func (p *parser) hex4(path string) (rune, error) {
	if len(p.data)-p.pos < 4 {
		return 0, p.fail(ErrSyntax, path, "short \\u escape")
	}
	n, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, p.fail(ErrSyntax, path, "invalid \\u escape")
	}
	p.pos += 4
	return rune(n), nil
}
