package flatyaml

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// Rule: the flat shape is read: keys with one value, block and flow lists,
// quotes with their escapes, comments, document markers and CRLF.
func TestReadsTheFlatShape(t *testing.T) {
	cases := map[string]files{
		"---\nidentifier: legacy-repo # ngit\nmaintainers:\n  - npub1a\n  - 'npub1b'\nrelays: [wss://a.example, \"relay.b\",]\n...\n": {
			Identifier: "legacy-repo", Maintainers: []string{"npub1a", "npub1b"}, Relays: []string{"wss://a.example", "relay.b"}},
		"identifier: 'it''s a#b'\r\nrelays:\r\n- x\r\n": {Identifier: "it's a#b", Relays: []string{"x"}},
		"identifier: \"\\0\\a\\b\\t\\n\\v\\f\\r\\e\\ \\\"\\'\\\\\\N\\_\\L\\P\\x41\\u00e9\\U0001F680\"\n": {
			Identifier: "\x00\a\b\t\n\v\f\r\x1b \"'\\\u0085\u00a0\u2028\u2029Aé🚀"},
		"relays: []\nmaintainers: ~\n": {Relays: []string{}},
		"# nothing\n":                  {},
		"\ufeffrelays: [a]\n":          {Relays: []string{"a"}},
	}
	for in, want := range cases {
		d, err := Parse([]byte(in))
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		got, typeErr, _ := read(d)
		if typeErr != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %#v %v, want %#v", in, got, typeErr, want)
		}
		agree(t, []byte(in))
	}
}

// Rule: YAML beyond the flat shape is refused with the line it is on and
// what to do, never read as something else.
func TestRefusesWhatItDoesNotReadWithTheLine(t *testing.T) {
	cases := map[string]string{
		"identifier: &a x\n":              "line 1: '&' starts YAML",
		"identifier: x\nrelays: |\n  a\n": "line 2: '|' starts YAML",
		"identifier: x\n  y\n":            "line 2: an indented line",
		"relays:\n  - a\n  - b: c\n":      "line 3: a value with \": \"",
		"relays:\n  - a\n    - b\n":       "line 3: list items at different indentations",
		"relays: [a, [b]]\n":              "line 1: a list inside a list",
		"identifier: x\n---\n":            "line 2: a second document",
		"identifier: x\nidentifier: y\n":  "line 2: key \"identifier\" is given twice",
		"\tidentifier: x\n":               "line 1: a tab",
		"identifier: \"open\n":            "line 1: a quoted value is not closed",
		"relays: [a\n":                    "line 1: a list opened with '[' is not closed",
		"relays:\n  -\n":                  "line 2: an empty list item",
		"identifier: \"\\/\"\n":           "line 1: the escape \\/",
	}
	for in, want := range cases {
		_, err := Parse([]byte(in))
		var fe *Error
		if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want %q…", in, err, want)
		}
	}
}
