package strictjson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func seedCorpus(f *testing.F) {
	for _, s := range []string{
		`{"version":1,"sections":[{"id":"a","rank":0,"icon":null}]}`,
		`{"a":1,"a":2}`, `{"b":[1,2,{"c":"\u2028<&>"}],"a":-0}`, `1.5`, `"\ud83d\ude00"`,
		`[]`, `{}`, `null`, `{"version":1,"sections":[],"note":"x"} x`,
	} {
		f.Add([]byte(s))
	}
}

// FuzzCanonical: whatever CanonicalizeRaw accepts is valid JSON that means the
// same as its input, and canonicalizing it again changes nothing.
func FuzzCanonical(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := CanonicalizeRaw(data)
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("invalid output %q", out)
		}
		again, err := CanonicalizeRaw(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %q -> %q (%v)", out, again, err)
		}
		var a, b any
		if json.Unmarshal(data, &a) != nil || json.Unmarshal(out, &b) != nil {
			t.Fatalf("encoding/json disagrees on %q", data)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("meaning changed: %q -> %q", data, out)
		}
	})
}

// FuzzDecodeStrict: never panics; what it accepts re-encodes to the same
// canonical bytes as the input document.
func FuzzDecodeStrict(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var v outer
		canon, err := DecodeCanonical(data, &v)
		if err != nil {
			return
		}
		if v.Note == "" {
			// omitempty drops an empty note on re-encode; compare only when it
			// cannot differ.
			if bytes.Contains(canon, []byte(`"note":""`)) {
				return
			}
		}
		re, err := Canonical(v)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		if !bytes.Equal(re, canon) {
			t.Fatalf("decode/encode mismatch:\n in  %s\n out %s", canon, re)
		}
	})
}
