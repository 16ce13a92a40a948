package hugeheap

import "testing"

// Rule: the kernel's mode is the bracketed word of its sysfs choice.
func TestTheModeIsTheBracketedWord(t *testing.T) {
	for in, want := range map[string]string{
		"always [madvise] never\n": "madvise",
		"[always] madvise never\n": "always",
		"always madvise [never]":   "never",
		"always madvise never":     "",
		"[unclosed":                "",
		"":                         "",
	} {
		if got := bracketed(in); got != want {
			t.Errorf("bracketed(%q) = %q, want %q", in, got, want)
		}
	}
}

// Rule: GODEBUG turns huge pages off as the runtime reads it: the last
// numeric disablethp setting counts, and any number but 0 is off.
func TestTheLastDisablethpSettingWins(t *testing.T) {
	for in, want := range map[string]bool{
		"disablethp=1":              true,
		"gctrace=1,disablethp=1":    true,
		"disablethp=1,disablethp=0": false,
		"disablethp=0,disablethp=1": true,
		"disablethp=0":              false,
		"xdisablethp=1":             false,
		"disablethp=10":             true,
		"disablethp=1,disablethp=x": true,
		"disablethp=yes":            false,
		"":                          false,
	} {
		if got := disablesTHP(in); got != want {
			t.Errorf("disablesTHP(%q) = %t, want %t", in, got, want)
		}
	}
}
