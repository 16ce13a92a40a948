package root

import (
	"reflect"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// `--json a,b` selects fields as `--json-fields a,b` does, as gh's --json
// takes them. --json stays a bool flag (bare --json is the whole object),
// so the value is recognized here, before cobra parses the arguments
// (jsonValueArgs), only in two forms:
//
//   - `--json=a,b` (any value but a bool literal such as true or false);
//   - `--json a,b` where the next argument is a comma list in which every
//     name is a top-level field of the command's object (Group.JSONDocs) and
//     none is a subcommand's name: `roster repo check-event --json
//     nevent1...` and `roster repo --json health` keep their meaning.
//
// The second form is known only for the commands whose group names their
// object (Group.JSONDocs); for the
// others the `--json=a,b` form (or --json-fields) selects.

// jsonFields is the set of top-level JSON field names of t, read from
// its json tags.
func jsonFields(t reflect.Type) map[string]bool {
	set := map[string]bool{}
	addJSONFields(set, t)
	return set
}

func addJSONFields(set map[string]bool, t reflect.Type) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case tag == "-":
		case f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct:
			addJSONFields(set, f.Type)
		case tag != "":
			set[tag] = true
		case f.IsExported():
			set[f.Name] = true
		}
	}
}

// jsonBoolValues are the values pflag's bool --json=V accepts.
var jsonBoolValues = map[string]bool{"1": true, "0": true, "t": true, "f": true, "T": true, "F": true,
	"true": true, "false": true, "TRUE": true, "FALSE": true, "True": true, "False": true}

// JsonValueArgs rewrites a --json that carries field names into
// --json-fields; every other argument is returned as given.
func (t Tree) JsonValueArgs(root *cobra.Command, args []string) []string {
	var out []string
	var words []string // the command's words so far
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch {
		case arg == "--":
			return append(out, args[i:]...)
		case strings.HasPrefix(arg, "--json="):
			if v := strings.TrimPrefix(arg, "--json="); !jsonBoolValues[v] {
				arg = "--json-fields=" + v
			}
		case arg == "--json" && i+1 < len(args) && t.namesFields(root, words, args[i+1]):
			out = append(out, "--json-fields", args[i+1])
			i++
			continue
		case i+1 < len(args) && takesValue(commandOf(root, words), arg):
			out = append(out, arg, args[i+1])
			i++
			continue
		case !strings.HasPrefix(arg, "-"):
			words = append(words, arg)
		}
		out = append(out, arg)
	}
	return out
}

// commandOf is the command words name, nil when they name none.
func commandOf(root *cobra.Command, words []string) *cobra.Command {
	cmd, _, err := root.Find(words)
	if err != nil {
		return nil
	}
	return cmd
}

// namesFields is whether next is a comma list of top-level fields of the
// object of the command words names, none of them its subcommand.
func (t Tree) namesFields(root *cobra.Command, words []string, next string) bool {
	cmd, _, err := root.Find(words)
	if err != nil || cmd == nil {
		return false
	}
	doc := t.jsonDoc(cmdutil.CommandKey(cmd))
	if doc == nil {
		return false
	}
	fields := jsonFields(doc)
	for _, name := range strings.Split(next, ",") {
		if !fields[name] {
			return false
		}
		for _, sub := range cmd.Commands() {
			if sub.Name() == name || sub.HasAlias(name) {
				return false
			}
		}
	}
	return true
}
