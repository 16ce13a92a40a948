package clitest

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Completions runs `roster __complete args...` in-process and returns the
// offered values (without descriptions) and the directive line.
func Completions(t *testing.T, inv Invocation, args ...string) ([]string, string) {
	t.Helper()
	r := inv.Roster(t, append([]string{"__complete"}, args...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("__complete %v: exit %d %q", args, r.Code, r.Err)
	}
	var values []string
	directive := ""
	for _, line := range strings.Split(strings.TrimSpace(r.Out), "\n") {
		if strings.HasPrefix(line, ":") {
			directive = line
			continue
		}
		values = append(values, strings.SplitN(line, "\t", 2)[0])
	}
	return values, directive
}

// ":4" is cobra.ShellCompDirectiveNoFileComp: the shell offers no file names.
const NoFileComp = ":4"
