package flatyaml

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"
)

// files is the shape both of roster's YAML files have: maintainers.yaml's
// keys, a superset of config.yaml's.
type files struct {
	Identifier  string   `yaml:"identifier"`
	Maintainers []string `yaml:"maintainers"`
	Relays      []string `yaml:"relays"`
}

// read is what roster reads from a flat document: the three keys through
// the typed accessors, and whether only known keys were used.
func read(d Doc) (files, error, error) {
	var f files
	var err error
	if f.Identifier, err = d.String("identifier"); err != nil {
		return f, err, nil
	}
	if f.Maintainers, err = d.Strings("maintainers"); err != nil {
		return f, err, nil
	}
	if f.Relays, err = d.Strings("relays"); err != nil {
		return f, err, nil
	}
	return f, nil, d.Unknown("identifier", "maintainers", "relays")
}

// agree checks one document against yaml.v3: whatever flatyaml accepts,
// yaml.v3 accepts and reads to the same values, with the same verdict on
// unknown keys (settings decodes with KnownFields) and on a list given
// where one value goes or the other way round.
func agree(t *testing.T, data []byte) {
	t.Helper()
	d, err := Parse(data)
	if err != nil {
		var fe *Error
		if !errors.As(err, &fe) || fe.Line < 1 {
			t.Fatalf("%.300q: an error without its line: %v", data, err)
		}
		return // flatyaml refuses: it never claims what yaml.v3 would read
	}
	got, typeErr, unknownErr := read(d)
	var want files
	yerr := yaml.Unmarshal(data, &want)
	if typeErr != nil {
		if yerr == nil {
			t.Fatalf("%.300q: flatyaml refuses a value's type (%v), yaml.v3 reads %+v", data, typeErr, want)
		}
		return
	}
	if yerr != nil {
		t.Fatalf("%.300q: flatyaml reads %+v, yaml.v3 refuses: %v", data, got, yerr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%.300q: flatyaml reads %#v, yaml.v3 %#v", data, got, want)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var strict files
	serr := dec.Decode(&strict)
	if errors.Is(serr, io.EOF) {
		serr = nil
	}
	if (serr == nil) != (unknownErr == nil) {
		t.Fatalf("%.300q: unknown keys: flatyaml says %v, yaml.v3 %v", data, unknownErr, serr)
	}
}

var seeds = []string{
	"",
	"# only a comment\n",
	"relays: [wss://a.example, wss://b.example]\n",
	"relays:\n  - wss://a.example\n  - 'wss://b.example' # second\n",
	"relays:\n- wss://a.example\n- \"wss://b\\u00e9.example\"\n",
	"---\nidentifier: legacy-repo\nmaintainers:\n  - npub1abc\nrelays:\n  - relay.legacy.example\n...\n",
	"identifier: x\r\nmaintainers: [npub1a]\r\n",
	"relays:\n",
	"relays: ~\n",
	"relays: []\n",
	"relays: [a, b,]\n",
	"identifier: 'it''s'\n",
	"identifier: \"tab\\there\"\n",
	"identifier: 123\n",
	"identifier: true\n",
	"identifier: 0x1F\n",
	"identifier: a:b\n",
	"identifier: a#b\n",
	"identifier: a #b\n",
	"identifier: [a]\n",
	"relays: wss://one\n",
	"relay: [wss://typo]\n",
	"other: value\nidentifier: x\n",
	"identifier: x\nidentifier: y\n",
	"identifier: &a x\n",
	"identifier: |\n  x\n",
	"identifier: x\n  y\n",
	"relays:\n  - a\n   - b\n",
	"relays:\n  - - a\n",
	"relays:\n  - a: b\n",
	"relays: [a: b]\n",
	"relays: {a: b}\n",
	"identifier: x\n---\nidentifier: y\n",
	"\tidentifier: x\n",
	"identifier: \"unterminated\n",
	"identifier: -x\n",
	"identifier: - x\n",
	"relays: [-a, ?b, :c]\n",
	"relays: [ 'a' , \"b\" ]\n",
	"identifier: x # comment with 'quote\n",
	"identifier: 'a # not a comment'\n",
	"identifier: \"\\x41\\u00e9\\U0001F680\"\n",
	"identifier: \"\\0\\a\\b\\t\\n\\v\\f\\r\\e\\ \\\"\\'\\\\\\N\\_\\L\\P\"\n",
	"identifier: \"\\/\"\n",
	"identifier: ~x\n",
	"identifier: Null\n",
	"identifier: 1e3\n",
	"identifier: .inf\n",
	"identifier: 2001-12-14\n",
	"relays:\n  - ~\n",
	"relays:\n  - null\n",
	"relays: [null]\n",
	"relays: [\"\"]\n",
	"relays:\n  -\n",
	"\ufeffrelays: [wss://a.example]\n",
	"\ufeff\ufeffrelays: [wss://a.example]\n",
	"relays: [wss://a.example]\n\ufeff",
}

// Rule: what flatyaml reads, it reads as yaml.v3 would, and what it does
// not read it refuses with the line (never a different value).
func TestSeedsAgreeWithYAMLv3(t *testing.T) {
	for _, s := range seeds {
		agree(t, []byte(s))
	}
}

func FuzzAgreesWithYAMLv3(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		agree(t, data)
	})
}
