// Package flatyaml reads the one shape of YAML roster's two YAML files
// have: config.yaml (relays) and ngit's maintainers.yaml (identifier,
// maintainers, relays). A document is a mapping at the left margin whose
// values are each nothing (null), one scalar, or a list of scalars written
// as a block ("- item" lines) or a flow ("[a, b]"). Scalars are plain,
// 'single-quoted' or "double-quoted" on one line. Comments, a "---" start
// and a "..." end are allowed, and CRLF line ends and a leading byte-order
// mark.
//
// Anything else that YAML allows (nested mappings, anchors and aliases,
// tags, block and multi-line scalars, a second document) is refused with
// the line it is on, never guessed at. What flatyaml accepts it reads as
// gopkg.in/yaml.v3 does; FuzzAgreesWithYAMLv3 holds it to that.
//
// Why not yaml.v3 itself: linking it costs every roster command about a
// twentieth of its start-up in package initialisation, for two files most
// users never write (docs/PERFORMANCE.md, "Start-up, seventh pass").
package flatyaml

import (
	"fmt"
	"strings"
)

// Kind is what a key holds.
type Kind int

const (
	// Null: the key has no value ("relays:" with nothing after it).
	Null Kind = iota
	// Scalar: one value on the key's line.
	Scalar
	// List: a flow or block sequence of scalars.
	List
)

// Value is one key's value and the line its key is on (1-based).
type Value struct {
	Kind   Kind
	Scalar string
	List   []string
	Line   int
}

// Doc is a parsed document: its keys in order and their values.
type Doc struct {
	Keys   []string
	Values map[string]Value
}

// Error is a document flatyaml does not read, with the line it stopped on.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Parse reads data as a flat document. An empty document (nothing, or only
// comments) is an empty Doc.
func Parse(data []byte) (Doc, error) {
	// A leading byte-order mark is how some editors save UTF-8; YAML
	// allows it there (and only there).
	text := strings.TrimPrefix(string(data), "\ufeff")
	p := parser{lines: strings.Split(text, "\n"), doc: Doc{Values: map[string]Value{}}}
	if err := p.run(); err != nil {
		return Doc{}, err
	}
	return p.doc, nil
}

type parser struct {
	lines []string
	doc   Doc
}

func (p *parser) run() error {
	started, ended := false, false
	for i := 0; i < len(p.lines); i++ {
		n := i + 1
		text, err := clean(p.lines[i], n)
		if err != nil {
			return err
		}
		if blankOrComment(text) {
			continue
		}
		if ended {
			return &Error{n, "text after the document's end (\"...\")"}
		}
		if text == "---" || strings.HasPrefix(text, "---") && blankOrComment(text[3:]) && text[3] == ' ' {
			if started || len(p.doc.Keys) > 0 {
				return &Error{n, "a second document (\"---\"); roster reads one"}
			}
			started = true
			continue
		}
		if text == "..." || strings.HasPrefix(text, "...") && blankOrComment(text[3:]) && text[3] == ' ' {
			if !started && len(p.doc.Keys) == 0 {
				return &Error{n, "a document end (\"...\") before any document"}
			}
			ended = true
			continue
		}
		if text[0] == ' ' {
			return &Error{n, "an indented line that is not a list item under a key; write each key at the left margin"}
		}
		next, err := p.entry(text, i)
		if err != nil {
			return err
		}
		i = next
	}
	return nil
}

// entry reads the "key: value" at line i and, for a block list, the item
// lines under it; it returns the index of the last line it used.
func (p *parser) entry(text string, i int) (int, error) {
	n := i + 1
	key, rest, ok := strings.Cut(text, ":")
	if !ok || (rest != "" && rest[0] != ' ') {
		return i, &Error{n, "expected \"key: value\""}
	}
	if !plainKey(key) {
		return i, &Error{n, fmt.Sprintf("key %q: roster reads keys of up to 64 letters, digits, '_', '-' and '.'", key)}
	}
	if _, dup := p.doc.Values[key]; dup {
		return i, &Error{n, fmt.Sprintf("key %q is given twice", key)}
	}
	v := Value{Line: n}
	switch {
	case blankOrComment(rest):
		items, last, err := p.blockList(i + 1)
		if err != nil {
			return i, err
		}
		if items != nil {
			v.Kind, v.List, i = List, items, last
		}
	case strings.TrimLeft(rest, " ")[0] == '[':
		items, err := flowList(strings.TrimLeft(rest, " "), n)
		if err != nil {
			return i, err
		}
		v.Kind, v.List = List, items
	default:
		s, tail, err := scalar(strings.TrimLeft(rest, " "), n, false)
		if err != nil {
			return i, err
		}
		if !blankOrComment(tail) {
			return i, &Error{n, fmt.Sprintf("unexpected %q after the value", strings.Trim(tail, " "))}
		}
		if s.null {
			break
		}
		v.Kind, v.Scalar = Scalar, s.text
	}
	p.doc.Keys = append(p.doc.Keys, key)
	p.doc.Values[key] = v
	return i, nil
}

// blockList reads "- item" lines from index from on: all at one
// indentation, each one scalar. It returns nil when the next content line
// is not an item (the key is null), and the index of the last line used.
func (p *parser) blockList(from int) ([]string, int, error) {
	var items []string
	indent, last := -1, from-1
	for i := from; i < len(p.lines); i++ {
		n := i + 1
		text, err := clean(p.lines[i], n)
		if err != nil {
			return nil, 0, err
		}
		if blankOrComment(text) {
			continue
		}
		body := strings.TrimLeft(text, " ")
		at := len(text) - len(body)
		if body != "-" && !strings.HasPrefix(body, "- ") {
			if at > 0 {
				return nil, 0, &Error{n, "an indented line that is not a list item; roster reads one value per key or a list of values"}
			}
			break // the next key
		}
		if indent == -1 {
			indent = at
		} else if at != indent {
			return nil, 0, &Error{n, "list items at different indentations"}
		}
		if blankOrComment(body[1:]) {
			return nil, 0, &Error{n, "an empty list item"}
		}
		item := strings.TrimLeft(body[1:], " ")
		if item[0] == '-' && (len(item) == 1 || item[1] == ' ') {
			return nil, 0, &Error{n, "a list inside a list"}
		}
		s, tail, err := scalar(item, n, false)
		if err != nil {
			return nil, 0, err
		}
		if !blankOrComment(tail) {
			return nil, 0, &Error{n, fmt.Sprintf("unexpected %q after the list item", strings.Trim(tail, " "))}
		}
		if s.null {
			return nil, 0, &Error{n, "an empty list item"}
		}
		items = append(items, s.text)
		last = i
	}
	return items, last, nil
}

// flowList reads "[a, b]" (a trailing comma allowed), all on one line.
func flowList(text string, n int) ([]string, error) {
	rest := strings.TrimLeft(text[1:], " ")
	items := []string{}
	for {
		if rest == "" {
			return nil, &Error{n, "a list opened with '[' is not closed on its line"}
		}
		if rest[0] == ']' {
			if !blankOrComment(rest[1:]) {
				return nil, &Error{n, fmt.Sprintf("unexpected %q after the list", strings.Trim(rest[1:], " "))}
			}
			return items, nil
		}
		if rest[0] == ',' {
			return nil, &Error{n, "an empty list item"}
		}
		s, tail, err := scalar(rest, n, true)
		if err != nil {
			return nil, err
		}
		if s.null {
			return nil, &Error{n, "an empty list item"}
		}
		items = append(items, s.text)
		rest = strings.TrimLeft(tail, " ")
		switch {
		case rest == "":
			return nil, &Error{n, "a list opened with '[' is not closed on its line"}
		case strings.HasPrefix(rest, ","):
			rest = strings.TrimLeft(rest[1:], " ")
		case strings.HasPrefix(rest, "]"):
		default:
			return nil, &Error{n, "list items must be separated by ','"}
		}
	}
}

// clean refuses what flatyaml never reads anywhere on a line (a tab, a
// control character, a byte-order mark) and drops a CRLF's CR.
func clean(line string, n int) (string, error) {
	line = strings.TrimSuffix(line, "\r")
	for _, r := range line {
		switch {
		case r == '\t':
			return "", &Error{n, "a tab; indent and separate with spaces"}
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0xfeff || r == 0xfffd:
			return "", &Error{n, fmt.Sprintf("the character %U", r)}
		}
	}
	return line, nil
}

// blankOrComment is whether s holds nothing but spaces and perhaps a
// comment: '#' at the start of s or after a space.
func blankOrComment(s string) bool {
	t := strings.TrimLeft(s, " ")
	return t == "" || (t[0] == '#' && (len(t) < len(s) || s == t))
}

func plainKey(k string) bool {
	if k == "" || len(k) > 64 || k[0] == '-' || k[0] == '.' {
		return false
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return !isNullWord(k) && !isBoolWord(k)
}
