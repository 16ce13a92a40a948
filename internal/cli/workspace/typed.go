// The command being run, as its user typed it: what a refusal of one of
// its inputs (no or several --relay, a NIP-05 name that did not resolve)
// offers to run again with that input fixed.

package workspace

import (
	"slices"
	"strconv"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/suggest"
)

// typedLeftOut are the flags a retry leaves out: how the result is shown
// and how long to wait are not what is retried, and --relay and --home are
// added back by the renderer (suggest.Selectors) unless the retry names
// its own.
var typedLeftOut = []string{"json", "jq", "json-fields", "timeout", "deadline", "verbose", "relay", "home"}

// typedRetry is the running command as typed (its words, arguments and
// flags but typedLeftOut, --dry-run included: a retried preview stays a
// preview), with the values set names replaced: an argument by its
// position ("0"), a flag by its name ("--owner"). A placeholder such as
// "<npub>" is what the user fills in. Without a running command it is
// `roster workspace --help`.
func typedRetry(a *cmdutil.Factory, set map[string]string) suggest.Command {
	cmd := a.Running
	if cmd == nil {
		return suggest.Roster("workspace", "--help")
	}
	words := strings.Fields(cmd.CommandPath())[1:]
	for i, arg := range cmd.Flags().Args() {
		if v, ok := set[strconv.Itoa(i)]; ok {
			arg = v
		}
		words = append(words, arg)
	}
	words = append(words, cmdutil.Typed{Keep: func(name string) bool { return !slices.Contains(typedLeftOut, name) }, Replace: set}.Flags(cmd)...)
	return suggest.Roster(words...)
}
