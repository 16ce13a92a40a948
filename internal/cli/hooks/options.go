package hooks

import "github.com/roster-cli/roster/internal/cli/cmdutil"

// Options are a `roster hooks` subcommand as its flags and arguments gave
// it: Verb is install, uninstall, status or run; Hook and HookArgs are
// run's (the Git hook and the arguments Git gave it).
type Options struct {
	Factory  *cmdutil.Factory
	Verb     string
	Hook     string
	HookArgs []string
}
