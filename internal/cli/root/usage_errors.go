package root

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// Plain words for the usage errors cobra and pflag would word in their own
// terms ("accepts 1 arg(s), received 0", `time: missing unit in duration
// "10"`): what is missing or wrong, and the usage line.

// explainArgErrors wraps the argument check of every command without
// subcommands so that cobra's count errors say which argument is missing
// or extra. A check that already returns roster's own error is kept.
func explainArgErrors(c *cobra.Command) {
	for _, sub := range c.Commands() {
		explainArgErrors(sub)
	}
	if c.Args == nil || c.HasSubCommands() {
		return
	}
	own := c.Args
	c.Args = func(cmd *cobra.Command, args []string) error {
		err := own(cmd, args)
		var ee *cmdutil.ExitError
		if err == nil || errors.As(err, &ee) {
			return err
		}
		return argumentsError(cmd, args)
	}
}

// useArgs are the positional placeholders of a Use line ("show <group-id>",
// "reorder <section>..."), up to the first flag in it.
func useArgs(use string) (required, optional []string, variadic bool) {
	words := strings.Fields(use)
	for _, w := range words[min(1, len(words)):] {
		if strings.HasPrefix(w, "-") {
			break
		}
		switch {
		case strings.HasPrefix(w, "["):
			optional = append(optional, w)
		case strings.HasPrefix(w, "<"):
			required = append(required, strings.TrimSuffix(w, "..."))
			variadic = variadic || strings.HasSuffix(w, "...")
		}
	}
	return required, optional, variadic
}

// argumentsError names the missing or extra arguments of cmd.
func argumentsError(cmd *cobra.Command, args []string) *cmdutil.ExitError {
	required, optional, variadic := useArgs(cmd.Use)
	var msg string
	switch {
	case len(required) == 0 && len(optional) == 0:
		msg = fmt.Sprintf("%s takes no arguments, but was given %s", cmd.CommandPath(), quoteAll(args))
	case len(args) < len(required):
		missing := required[len(args):]
		msg = fmt.Sprintf("%s needs %s: missing %s", cmd.CommandPath(), strings.Join(required, " "), strings.Join(missing, " "))
	case !variadic:
		extra := args[min(len(args), len(required)+len(optional)):]
		msg = fmt.Sprintf("%s takes %s, but was given %d argument(s): %s is one too many", cmd.CommandPath(),
			strings.Join(append(required, optional...), " "), len(args), quoteAll(extra))
		if len(extra) > 1 {
			msg = strings.TrimSuffix(msg, " is one too many") + " are too many"
		}
	default:
		msg = fmt.Sprintf("%s takes %s... (got %s)", cmd.CommandPath(), strings.Join(required, " "), quoteAll(args))
	}
	msg += "\nusage: " + cmd.UseLine()
	return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage", Err: errors.New(msg),
		Details: map[string]any{"command": cmd.CommandPath(), "usage": cmd.UseLine(), "arguments": cmdutil.OrEmptySlice(args)}}
}

func quoteAll(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = strconv.Quote(a)
	}
	return strings.Join(q, " ")
}

// badFlagValue matches pflag's error for a value its type cannot parse,
// compiled on first use, not at every start-up.
var badFlagValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?--([\w-]+)" flag: `)
})

// flagError is a flag parse error in plain words: a duration without a
// unit, a boolean that is not one. Anything else keeps pflag's text.
func flagError(cmd *cobra.Command, err error) *cmdutil.ExitError {
	ee := &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage", Err: err}
	if uf := cmdutil.UnknownFlagError(cmd, err); uf != nil {
		return uf
	}
	m := badFlagValue().FindStringSubmatch(err.Error())
	if m == nil {
		return ee
	}
	value, name := m[1], m[2]
	f := cmd.Flags().Lookup(name)
	if f == nil {
		return ee
	}
	switch f.Value.Type() {
	case "duration":
		if _, numErr := strconv.ParseFloat(value, 64); numErr == nil {
			ee.Err = fmt.Errorf("--%s %s: a duration needs a unit, e.g. %ss (s, m or ms)", name, value, value)
		} else {
			ee.Err = fmt.Errorf("--%s %s: not a duration; write it like 10s, 1m30s or 500ms", name, value)
		}
	case "bool":
		ee.Err = fmt.Errorf("--%s=%s: not true or false; --%s alone means true", name, value, name)
	default:
		return ee
	}
	ee.Details = map[string]any{"flag": "--" + name, "value": value}
	return ee
}
