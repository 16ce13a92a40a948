package cmdutil

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Typed says how a command's flags are written back as the user typed
// them, for a printed command that reruns it with one mistake fixed: the
// rerun is the user's own command, never a different one.
type Typed struct {
	// Keep says which flags, by name, the rerun carries; nil keeps all.
	Keep func(name string) bool
	// Replace gives a flag's new value by its flag ("--owner"): the input
	// the refusal was about, or a placeholder such as "<npub>".
	Replace map[string]string
	// Omit says which values are never repeated (a secret): the flag is
	// left out with them.
	Omit func(value string) bool
}

// Flags are the flags the user set on cmd, in cobra's order, as they
// would be typed again: a list flag once per value, a bool as --f or
// --f=false, a flag whose value is optional (pflag's NoOptDefVal: --strict,
// --strict=all) as --f or --f=v (with a space the value would be read as
// an argument), any other as --f v.
func (t Typed) Flags(cmd *cobra.Command) []string {
	var out []string
	omit := func(v string) bool { return t.Omit != nil && t.Omit(v) }
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if t.Keep != nil && !t.Keep(f.Name) {
			return
		}
		flag := "--" + f.Name
		if v, ok := t.Replace[flag]; ok {
			out = append(out, flag, v)
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				if !omit(v) {
					out = append(out, flag, v)
				}
			}
			return
		}
		switch v := f.Value.String(); {
		case f.Value.Type() == "bool" && v == "true":
			out = append(out, flag)
		case f.Value.Type() == "bool":
			out = append(out, flag+"=false")
		case omit(v):
		case f.NoOptDefVal != "" && v == f.NoOptDefVal:
			out = append(out, flag)
		case f.NoOptDefVal != "":
			out = append(out, flag+"="+v)
		default:
			out = append(out, flag, v)
		}
	})
	return out
}
