package main

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/roster-cli/roster/preflight"
)

// addDropFlag registers --drop, roster's narrowing of --force on add and
// accept: a state branch that --force would remove although this checkout
// has it as a remote-tracking branch (at another commit than the state's)
// is removed only when named here. The refusal that offers --force
// already carries the --drop it needs.
func addDropFlag(f *pflag.FlagSet, drop *[]string) {
	f.StringArrayVar(drop, "drop", nil, "with --force: confirm removing this state branch, which this checkout has only as a remote-tracking branch at another commit (refs/heads/<branch>; repeatable)")
}

// withDrop puts --drop on the intent: only with --force, each a full
// branch name.
func withDrop(in preflight.Intent, drop []string) (preflight.Intent, error) {
	if len(drop) == 0 {
		return in, nil
	}
	if !in.Force {
		return in, usageErr("--drop confirms what --force removes: pass it together with --force")
	}
	for _, ref := range drop {
		if !strings.HasPrefix(ref, "refs/heads/") || strings.ContainsAny(ref, " \t\n") || len(ref) == len("refs/heads/") {
			return in, usageErr("--drop %q: name the branch in full, as the refusal does (refs/heads/<branch>)", ref)
		}
	}
	return in.WithDrops(drop), nil
}
