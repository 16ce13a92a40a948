package root

import (
	"reflect"
	"sort"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// Tree is the command list a root runs: its command groups by name. The
// root knows no noun; roster's whole list is internal/cli/commands.All,
// and a noun's end-to-end tests run a tree of that noun's groups alone.
type Tree map[string]Group

// Group is one command group under the root (repo, workspace, login, ...).
type Group struct {
	New func(*cmdutil.Factory) *cobra.Command
	// JSONDocs are the types of the JSON objects of the group's commands
	// whose top-level fields `--json a,b` selects (json_value.go), by
	// command path below the root ("repo", "repo health").
	JSONDocs map[string]reflect.Type
}

// names are the tree's group names, sorted: the order the whole tree adds
// them in (cobra sorts help by name; the order only decides which is
// built first).
func (t Tree) names() []string {
	names := make([]string, 0, len(t))
	for n := range t {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// jsonDoc is the type of the JSON object of the command at path (below
// the root), nil when no group names one.
func (t Tree) jsonDoc(path string) reflect.Type {
	for _, g := range t {
		if d := g.JSONDocs[path]; d != nil {
			return d
		}
	}
	return nil
}
