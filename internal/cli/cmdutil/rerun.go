package cmdutil

import (
	"slices"
	"strings"

	"github.com/roster-cli/roster/journal"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// rerunDropped are the flags a rerun command leaves out: how the output is
// shown and how long to wait are not the intent, and --home is added back
// by the renderer (Selectors).
var rerunDropped = []string{"json", "jq", "json-fields", "timeout", "deadline", "home", "verbose", "dry-run", "yes"}

// RerunWords is the running command as words after "roster": its path, its
// arguments and the flags given (but those of rerunDropped), so a journal
// entry can offer to rerun the intent. nil when nothing is running.
func (a *Factory) RerunWords() []string {
	cmd := a.Running
	if cmd == nil {
		return nil
	}
	if w := rerunWords(cmd); len(w) <= journal.MaxCommandWords {
		return w
	}
	return nil // a journal entry keeps at most that many words
}

func rerunWords(cmd *cobra.Command) []string {
	path := strings.Fields(cmd.CommandPath())
	out := append([]string{}, path[1:]...)
	out = append(out, cmd.Flags().Args()...)
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if slices.Contains(rerunDropped, f.Name) {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				out = append(out, "--"+f.Name, v)
			}
			return
		}
		if f.Value.Type() == "bool" {
			if f.Value.String() == "true" {
				out = append(out, "--"+f.Name)
			} else {
				out = append(out, "--"+f.Name+"=false")
			}
			return
		}
		out = append(out, "--"+f.Name, f.Value.String())
	})
	return out
}
