package strictjson

import (
	"errors"
	"testing"
)

type inner struct {
	ID   string  `json:"id"`
	Rank int     `json:"rank"`
	Icon *string `json:"icon"`
}

type outer struct {
	Version  int     `json:"version"`
	Sections []inner `json:"sections"`
	Note     string  `json:"note,omitempty"`
}

func TestCanonicalSortsKeysByCodePointNotUTF16(t *testing.T) {
	// U+FF61 sorts before U+1F600 by code point; UTF-16 order (JavaScript's
	// default sort) puts the surrogate pair D83D.. first.
	got, err := CanonicalizeRaw([]byte(`{"😀":1,"｡":2,"a":3,"B":4}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"B":4,"a":3,"｡":2,"😀":1}`; string(got) != want {
		t.Fatalf("got %s want %s", got, want)
	}
}

func TestCanonicalDoesNotEscapeHTML(t *testing.T) {
	got, err := Canonical(map[string]string{"k": "<a&b>"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"k":"<a&b>"}`; string(got) != want {
		t.Fatalf("got %s want %s", got, want)
	}
}

func TestCanonicalEmitsLineSeparatorsRaw(t *testing.T) {
	got, err := Canonical("x\u2028y\u2029")
	if err != nil {
		t.Fatal(err)
	}
	if want := "\"x\u2028y\u2029\""; string(got) != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

func TestCanonicalEscapesOnlyQuoteBackslashAndControls(t *testing.T) {
	got, err := CanonicalizeRaw([]byte(`"\u0041\/\"\\\b\f\n\r\t\u0001\u001f é"`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `"A/\"\\\b\f\n\r\t\u0001\u001f é"`; string(got) != want {
		t.Fatalf("got %s want %s", got, want)
	}
}

func TestCanonicalRemovesInsignificantWhitespaceAndKeepsArrayOrder(t *testing.T) {
	got, err := CanonicalizeRaw([]byte(" {\n \"b\" : [ 3 , 1 , 2 ] ,\t\"a\":{ } , \"c\":[]}\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":{},"b":[3,1,2],"c":[]}`; string(got) != want {
		t.Fatalf("got %s want %s", got, want)
	}
}

func TestCanonicalNegativeZeroIsZero(t *testing.T) {
	got, err := CanonicalizeRaw([]byte(`[-0,-7,0,12]`))
	if err != nil || string(got) != `[0,-7,0,12]` {
		t.Fatalf("got %s, %v", got, err)
	}
}

func TestCanonicalRejectsFractionsAndExponents(t *testing.T) {
	for _, in := range []string{`1.0`, `1.5`, `{"a":[1e3]}`, `2E1`, `-0.0`} {
		if _, err := CanonicalizeRaw([]byte(in)); !errors.Is(err, ErrNonInteger) {
			t.Errorf("%s: err %v, want ErrNonInteger", in, err)
		}
	}
	if _, err := Canonical(map[string]float64{"x": 0.5}); !errors.Is(err, ErrNonInteger) {
		t.Errorf("Canonical(0.5): err %v", err)
	}
}

func TestRejectsDuplicateKeysAtEveryDepth(t *testing.T) {
	for _, in := range []string{
		`{"a":1,"a":1}`,
		`{"x":{"a":1,"b":2,"a":3}}`,
		`[{"k":[{"z":1,"z":2}]}]`,
		`{"a":1,"\u0061":2}`, // equal after unescaping
	} {
		if _, err := CanonicalizeRaw([]byte(in)); !errors.Is(err, ErrDuplicateKey) {
			t.Errorf("%s: err %v, want ErrDuplicateKey", in, err)
		}
	}
}

func TestRejectsTrailingData(t *testing.T) {
	for _, in := range []string{`{} {}`, `{}x`, `1 2`, `{"a":1}}`} {
		if _, err := CanonicalizeRaw([]byte(in)); !errors.Is(err, ErrTrailingData) {
			t.Errorf("%s: err %v, want ErrTrailingData", in, err)
		}
		var v map[string]any
		if err := DecodeStrict([]byte(in), &v); err == nil {
			t.Errorf("%s: DecodeStrict accepted trailing data", in)
		}
	}
}

func TestRejectsInvalidTextThatEncodingJSONWouldRepair(t *testing.T) {
	for _, in := range []string{
		"\"\xff\"",       // invalid UTF-8
		`"\ud800"`,       // lone high surrogate
		`"\udc00x"`,      // lone low surrogate
		`"\ud800\u0041"`, // high surrogate + non-surrogate
		"\"a\x01b\"",     // raw control character
		`"\x"`,           // unknown escape
		`01`, `+1`, `tru`, `[1,]`, `{"a":1,}`, `{a:1}`, ``,
	} {
		if _, err := CanonicalizeRaw([]byte(in)); !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: err %v, want ErrSyntax", in, err)
		}
	}
	got, err := CanonicalizeRaw([]byte(`"\ud83d\ude00"`))
	if err != nil || string(got) != `"😀"` {
		t.Fatalf("surrogate pair: %s, %v", got, err)
	}
}

func TestDecodeStrictRejectsUnknownFieldsAtEveryDepth(t *testing.T) {
	for _, in := range []string{
		`{"version":1,"sections":[],"extra":true}`,
		`{"version":1,"sections":[{"id":"a","rank":0,"icon":null,"x":1}]}`,
		`{"Version":1,"sections":[]}`, // encoding/json matches case-insensitively
		`{"version":1,"sections":[{"ID":"a","rank":0,"icon":null}]}`,
	} {
		var v outer
		if err := DecodeStrict([]byte(in), &v); !errors.Is(err, ErrUnknownField) {
			t.Errorf("%s: err %v, want ErrUnknownField", in, err)
		}
	}
}

func TestDecodeStrictRequiresFieldsNotMarkedOptional(t *testing.T) {
	var v outer
	if err := DecodeStrict([]byte(`{"version":1}`), &v); !errors.Is(err, ErrMissingField) {
		t.Fatalf("missing sections: %v", err)
	}
	if err := DecodeStrict([]byte(`{"version":1,"sections":[{"id":"a","rank":0}]}`), &v); !errors.Is(err, ErrMissingField) {
		t.Fatalf("missing nullable icon: %v", err)
	}
	// note is omitempty: optional.
	if err := DecodeStrict([]byte(`{"version":1,"sections":[{"id":"a","rank":0,"icon":"i"}]}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.Version != 1 || len(v.Sections) != 1 || v.Sections[0].Icon == nil || *v.Sections[0].Icon != "i" {
		t.Fatalf("decoded %+v", v)
	}
}

func TestDecodeStrictRejectsNullForNonNullableTypes(t *testing.T) {
	for _, in := range []string{`{"version":null,"sections":[]}`, `{"version":1,"sections":null}`} {
		var v outer
		if err := DecodeStrict([]byte(in), &v); !errors.Is(err, ErrNull) {
			t.Errorf("%s: err %v, want ErrNull", in, err)
		}
	}
}

func TestDecodeStrictRejectsFractionsAndWrongTypes(t *testing.T) {
	var v outer
	if err := DecodeStrict([]byte(`{"version":1.0,"sections":[]}`), &v); !errors.Is(err, ErrNonInteger) {
		t.Fatalf("fraction: %v", err)
	}
	if err := DecodeStrict([]byte(`{"version":"1","sections":[]}`), &v); !errors.Is(err, ErrType) {
		t.Fatalf("string for int: %v", err)
	}
	if err := DecodeStrict([]byte(`{"version":99999999999999999999,"sections":[]}`), &v); err == nil {
		t.Fatal("int overflow accepted")
	}
}

func TestDecodeCanonicalReturnsCanonicalBytesOfTheDocument(t *testing.T) {
	var v outer
	got, err := DecodeCanonical([]byte(`{ "sections":[{"rank":0,"icon":null,"id":"<&>"}], "version":1 }`), &v)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"sections":[{"icon":null,"id":"<&>","rank":0}],"version":1}`; string(got) != want {
		t.Fatalf("got %s want %s", got, want)
	}
}

func TestRejectsDeepNesting(t *testing.T) {
	deep := make([]byte, 0, 2*maxDepth+10)
	for i := 0; i < maxDepth+5; i++ {
		deep = append(deep, '[')
	}
	if _, err := CanonicalizeRaw(deep); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("err %v, want ErrTooDeep", err)
	}
}

func TestRejectsIntegersOutsideInt64(t *testing.T) {
	for _, in := range []string{`9223372036854775808`, `[-9223372036854775809]`} {
		if _, err := CanonicalizeRaw([]byte(in)); !errors.Is(err, ErrIntegerRange) {
			t.Errorf("%s: err %v, want ErrIntegerRange", in, err)
		}
	}
	got, err := CanonicalizeRaw([]byte(`[9223372036854775807,-9223372036854775808]`))
	if err != nil || string(got) != `[9223372036854775807,-9223372036854775808]` {
		t.Fatalf("int64 bounds: %s, %v", got, err)
	}
}
