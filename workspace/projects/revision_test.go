package projects

import (
	"errors"
	"testing"
)

func TestRevisionIsCanonicalIntegerFrom1To2Pow63Minus1(t *testing.T) {
	good := map[string]int64{
		"1":                   1,
		"8":                   8,
		"10":                  10,
		"9223372036854775807": 9223372036854775807, // 2^63-1
	}
	for s, want := range good {
		got, err := ParseRevision(s)
		if err != nil || got != want {
			t.Errorf("%q: %d, %v", s, got, err)
		}
		if FormatRevision(got) != s {
			t.Errorf("%q does not round-trip", s)
		}
	}
	bad := []string{
		"0",                    // below 1
		"01",                   // leading zero
		"00",                   // leading zero
		"+1",                   // sign
		"-1",                   // sign
		"9223372036854775808",  // 2^63
		"18446744073709551616", // 2^64
		"1.0", "1e3", " 1", "1 ", "", "0x1", "١",
	}
	for _, s := range bad {
		if _, err := ParseRevision(s); !errors.Is(err, ErrRevision) {
			t.Errorf("%q accepted", s)
		}
	}
}
