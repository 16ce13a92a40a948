package channelid

import "testing"

// One rule: canonical lowercase 8-4-4-4-12, never nil; a person may type
// any case.
func TestChannelUUIDRule(t *testing.T) {
	for _, c := range []struct {
		in        string
		canonical bool
		valid     bool
	}{
		{"11111111-1111-4111-8111-111111111111", true, true},
		{Nil, true, false},
		{"11111111-1111-4111-8111-11111111111A", false, false},
		{"11111111111141118111111111111111", false, false},
		{"11111111-1111-4111-8111-1111111111111", false, false},
		{"g1111111-1111-4111-8111-111111111111", false, false},
	} {
		if IsCanonical(c.in) != c.canonical || Valid(c.in) != c.valid {
			t.Errorf("%q: canonical %v valid %v", c.in, IsCanonical(c.in), Valid(c.in))
		}
	}
	if got, err := Parse(" 3F1C2D4E-0000-4000-8000-000000000001 "); err != nil || got != "3f1c2d4e-0000-4000-8000-000000000001" {
		t.Errorf("Parse upper: %q %v", got, err)
	}
	if _, err := Parse(Nil); err == nil {
		t.Error("Parse accepted the nil UUID")
	}
	if _, err := Parse("not-a-uuid"); err == nil {
		t.Error("Parse accepted a non-UUID")
	}
}
