package cmdutil

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Rule (every printed command moves forward): a rerun carries the user's
// flags as they would type them again, so that cobra parses the rerun as it
// parsed the command: a list flag once per value, a bool as --f or
// --f=false, an optional-value flag with "=" (with a space its value would
// be an argument), others as --f v; kept, replaced and omitted as asked.
func TestTypedFlagsParseBackAsTheyWereGiven(t *testing.T) {
	build := func() *cobra.Command {
		cmd := &cobra.Command{Use: "x", Run: func(*cobra.Command, []string) {}}
		cmd.Flags().StringArray("relay", nil, "")
		cmd.Flags().Bool("private", false, "")
		cmd.Flags().Bool("closed", true, "")
		cmd.Flags().String("strict", "", "")
		cmd.Flags().Lookup("strict").NoOptDefVal = "errors"
		cmd.Flags().String("name", "", "")
		cmd.Flags().String("owner", "", "")
		cmd.Flags().String("json", "", "")
		return cmd
	}
	typed := []string{"--relay", "wss://a", "--relay", "wss://b", "--private", "--closed=false", "--strict", "--name", "-odd name", "--owner", "bob", "--json", "x"}
	cmd := build()
	if err := cmd.ParseFlags(typed); err != nil {
		t.Fatal(err)
	}
	got := Typed{Keep: func(n string) bool { return n != "json" }, Replace: map[string]string{"--owner": "<npub>"},
		Omit: func(v string) bool { return strings.HasPrefix(v, "wss://b") }}.Flags(cmd)
	want := []string{"--closed=false", "--name", "-odd name", "--owner", "<npub>", "--private", "--relay", "wss://a", "--strict"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	// A value other than the optional one keeps its "=", and every rerun
	// parses back to the same values.
	cmd = build()
	if err := cmd.ParseFlags([]string{"--strict=all", "--relay", "wss://a", "--private=false"}); err != nil {
		t.Fatal(err)
	}
	again := Typed{}.Flags(cmd)
	if want := []string{"--private=false", "--relay", "wss://a", "--strict=all"}; !slices.Equal(again, want) {
		t.Fatalf("got %q, want %q", again, want)
	}
	re := build()
	if err := re.ParseFlags(append(again, "arg")); err != nil {
		t.Fatal(err)
	}
	if v, _ := re.Flags().GetString("strict"); v != "all" || !slices.Equal(re.Flags().Args(), []string{"arg"}) {
		t.Fatalf("the rerun parsed --strict=%q and arguments %q", v, re.Flags().Args())
	}
}
