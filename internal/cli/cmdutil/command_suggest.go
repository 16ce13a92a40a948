package cmdutil

import (
	"regexp"
	"strings"
	"sync"

	"github.com/roster-cli/roster/suggest"
	"github.com/spf13/cobra"
)

// CommandSuggestions are parent's subcommands close to typed (cobra's
// SuggestionsFor: two edits, or a prefix). At the top level, a word that
// is (within two edits of) the name of a deeper command suggests its path
// ("roster helth": repo health).
func CommandSuggestions(parent *cobra.Command, typed string) []string {
	if parent.SuggestionsMinimumDistance <= 0 {
		parent.SuggestionsMinimumDistance = 2
	}
	maybe := parent.SuggestionsFor(typed)
	if len(maybe) > 0 || parent.HasParent() {
		return maybe
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, s := range c.Commands() {
			if !s.IsAvailableCommand() {
				continue
			}
			if c != parent && (s.Name() == typed || len(typed) >= 4 && Levenshtein(typed, s.Name()) <= 2) {
				maybe = append(maybe, strings.TrimPrefix(s.CommandPath(), parent.Name()+" "))
			}
			walk(s)
		}
	}
	walk(parent)
	return maybe
}

// TopLevelUnknown matches cobra's error for an unknown first word. Compiled
// on first use, not at every start-up.
var TopLevelUnknown = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^unknown command "(.*)" for "roster"$`)
})

func Levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// HelpFor is `<command path> --help`.
func HelpFor(cmd *cobra.Command) suggest.Command {
	return suggest.Command{Argv: append(strings.Fields(cmd.CommandPath()), "--help")}.Pin()
}
