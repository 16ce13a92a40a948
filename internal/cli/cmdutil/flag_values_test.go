package cmdutil

import (
	"slices"
	"testing"

	"github.com/spf13/pflag"
)

// The slice flags roster defines itself parse, print and show in help
// exactly as pflag's own do.
func TestSliceFlagsBehaveAsPflagsOwn(t *testing.T) {
	argSets := [][]string{
		nil,
		{"--x", "a"},
		{"--x", "a", "--x", "b,c"},
		{"--x", `"q,r",s`},
		{"--x", ""},
		{"--x=", "--x", "z"},
		{"--x", "with space", "--x", `quo"te`},
		{"--x", `"unterminated`},
	}
	kinds := []struct {
		name  string
		ours  func(*pflag.FlagSet, *[]string)
		their func(*pflag.FlagSet, *[]string)
	}{
		{"stringArray",
			func(fs *pflag.FlagSet, p *[]string) { StringArrayVar(fs, p, "x", "a `value`, repeatable") },
			func(fs *pflag.FlagSet, p *[]string) { fs.StringArrayVar(p, "x", nil, "a `value`, repeatable") }},
		{"stringSlice",
			func(fs *pflag.FlagSet, p *[]string) { StringSliceVar(fs, p, "x", "comma-separated values") },
			func(fs *pflag.FlagSet, p *[]string) { fs.StringSliceVar(p, "x", nil, "comma-separated values") }},
	}
	for _, k := range kinds {
		for _, args := range argSets {
			ours, theirs := pflag.NewFlagSet("ours", pflag.ContinueOnError), pflag.NewFlagSet("theirs", pflag.ContinueOnError)
			ours.SetOutput(nopWriter{})
			theirs.SetOutput(nopWriter{})
			var got, want []string
			k.ours(ours, &got)
			k.their(theirs, &want)
			if a, b := ours.FlagUsages(), theirs.FlagUsages(); a != b {
				t.Errorf("%s: help %q, pflag's %q", k.name, a, b)
			}
			errOurs, errTheirs := ours.Parse(args), theirs.Parse(args)
			if (errOurs == nil) != (errTheirs == nil) {
				t.Errorf("%s %q: error %v, pflag's %v", k.name, args, errOurs, errTheirs)
			}
			if !slices.Equal(got, want) || (got == nil) != (want == nil) {
				t.Errorf("%s %q: value %#v, pflag's %#v", k.name, args, got, want)
			}
			fo, ft := ours.Lookup("x"), theirs.Lookup("x")
			if fo.Value.String() != ft.Value.String() || fo.Value.Type() != ft.Value.Type() || fo.Changed != ft.Changed {
				t.Errorf("%s %q: %q %q %v, pflag's %q %q %v", k.name, args, fo.Value.String(), fo.Value.Type(), fo.Changed, ft.Value.String(), ft.Value.Type(), ft.Changed)
			}
			so, st := fo.Value.(pflag.SliceValue), ft.Value.(pflag.SliceValue)
			if !slices.Equal(so.GetSlice(), st.GetSlice()) {
				t.Errorf("%s %q: GetSlice %q, pflag's %q", k.name, args, so.GetSlice(), st.GetSlice())
			}
		}
	}
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }
