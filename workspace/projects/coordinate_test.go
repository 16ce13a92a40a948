package projects

import (
	"errors"
	"strings"
	"testing"
)

var ownerA = strings.Repeat("a", 64)

func TestCoordinateSplitsOnFirstTwoColonsSoDWithColonsStaysAddressable(t *testing.T) {
	c, err := ParseCoordinate("30621:" + ownerA + ":team:alpha:beta")
	if err != nil {
		t.Fatal(err)
	}
	if c.Owner != ownerA || c.D != "team:alpha:beta" {
		t.Fatalf("got %+v", c)
	}
	if c.String() != "30621:"+ownerA+":team:alpha:beta" {
		t.Fatalf("round trip %q", c.String())
	}
}

func TestCoordinateDOf1024BytesIsAccepted(t *testing.T) {
	d := strings.Repeat("x", 1024)
	c, err := ParseCoordinate("30621:" + ownerA + ":" + d)
	if err != nil || c.D != d {
		t.Fatalf("1024-byte d: %v", err)
	}
	// Multi-byte UTF-8 counts bytes, not runes: 341 three-byte runes + 1 = 1024.
	d = strings.Repeat("€", 341) + "x"
	if _, err := ParseCoordinate("30621:" + ownerA + ":" + d); err != nil {
		t.Fatalf("1024-byte UTF-8 d: %v", err)
	}
}

func TestCoordinateDOf1025BytesIsRejected(t *testing.T) {
	for _, d := range []string{strings.Repeat("x", 1025), strings.Repeat("€", 341) + "xy"} {
		if _, err := ParseCoordinate("30621:" + ownerA + ":" + d); !errors.Is(err, ErrCoordinate) {
			t.Fatalf("%d-byte d accepted: %v", len(d), err)
		}
	}
}

func TestCoordinateOwnerMustBe64LowercaseHex(t *testing.T) {
	for _, owner := range []string{
		strings.Repeat("A", 64),                     // uppercase
		strings.Repeat("a", 63) + "B",               // one uppercase
		strings.Repeat("a", 63),                     // short
		strings.Repeat("a", 65),                     // long
		strings.Repeat("g", 64),                     // not hex
		"npub1" + strings.Repeat("q", 59),           // npub is not a coordinate owner
		" " + strings.Repeat("a", 63),               // whitespace
		strings.Repeat("a", 32) + ":" + ownerA[:31], // colon inside owner
	} {
		if _, err := ParseCoordinate("30621:" + owner + ":demo"); !errors.Is(err, ErrCoordinate) {
			t.Errorf("owner %q accepted", owner)
		}
	}
}

func TestCoordinateKindIsTheLiteral30621(t *testing.T) {
	for _, k := range []string{"30617", "030621", "+30621", "30621 ", ""} {
		if _, err := ParseCoordinate(k + ":" + ownerA + ":demo"); !errors.Is(err, ErrCoordinate) {
			t.Errorf("kind %q accepted", k)
		}
	}
}

func TestCoordinateDMustBeNonEmpty(t *testing.T) {
	for _, s := range []string{"30621:" + ownerA + ":", "30621:" + ownerA, "30621", ""} {
		if _, err := ParseCoordinate(s); !errors.Is(err, ErrCoordinate) {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestCoordinateDIsPreservedVerbatim(t *testing.T) {
	for _, d := range []string{" padded ", "UPPER", "naïve", `quote"back\slash`, "tab\there"} {
		c, err := ParseCoordinate("30621:" + ownerA + ":" + d)
		if err != nil || c.D != d {
			t.Errorf("d %q: got %q, %v", d, c.D, err)
		}
	}
}

func TestProjectionAddressIsLowercaseSHA256OfTheUTF8Coordinate(t *testing.T) {
	// Expected digests computed outside Go: printf '%s' "30621:aaa…:demo" | sha256sum
	cases := map[string]string{
		"demo":       "0d994c77eb448092a51fc69ed33da10d86e495fbefa2fb4d2c827e991ab6116e",
		"team:alpha": "74a9837780aaec68f075a6188dfb2f894ad79ea4bd32179e0ad3a839e12dae83",
	}
	for d, want := range cases {
		if got := (Coordinate{Owner: ownerA, D: d}).Address(); got != want {
			t.Errorf("address of d=%q: %s, want %s", d, got, want)
		}
	}
	long := Coordinate{Owner: ownerA, D: strings.Repeat("x", 1024)}
	if a := long.Address(); len(a) != 64 || !IsLowerHex64(a) {
		t.Fatalf("address of a 1024-byte d is not 64 lowercase hex: %q", a)
	}
}

func FuzzParseProjectCoordinate(f *testing.F) {
	f.Add("30621:" + ownerA + ":demo")
	f.Add("30621:" + ownerA + ":a:b:c")
	f.Add("30621:" + strings.ToUpper(ownerA) + ":demo")
	f.Add("30621:" + ownerA + ":" + strings.Repeat("x", 1025))
	f.Add("30621::")
	f.Add("\xff30621:")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCoordinate(s)
		if err != nil {
			if !errors.Is(err, ErrCoordinate) {
				t.Fatalf("error %v does not wrap ErrCoordinate", err)
			}
			return
		}
		if c.String() != s {
			t.Fatalf("accepted %q but renders %q", s, c.String())
		}
		if !IsLowerHex64(c.Owner) || c.D == "" || len(c.D) > MaxDBytes {
			t.Fatalf("accepted an invalid coordinate %+v", c)
		}
		if a := c.Address(); !IsLowerHex64(a) {
			t.Fatalf("address %q", a)
		}
	})
}
