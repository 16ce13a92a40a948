package cmdutil

import (
	"fmt"
	"sort"
	"strings"

	"github.com/roster-cli/roster/suggest"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The global flags are persistent (they may come before or after the
// command's name), but each command reads only some of them. A global flag
// given to a command that ignores it is refused with exit 2, so that
// `roster version --repo garbage` or `roster whoami --relay wss://x` cannot
// look as if it did something. `--help` lists only the global flags the
// command uses.

// Global flag groups.
var (
	outputFlags  = []string{"json", "jq", "json-fields"}
	networkFlags = []string{"relay", "offline", "timeout", "deadline"}
)

func flagSet(groups ...[]string) map[string]bool {
	m := map[string]bool{}
	for _, g := range groups {
		for _, f := range g {
			m[f] = true
		}
	}
	return m
}

// GlobalFlagUse names, for every command that runs something, the global
// flags it reads (its command path without "roster "). A command group that
// only lists its subcommands (cache, dev, ...) is not in it: it accepts
// none and prints its help. TestEveryCommandDeclaresItsGlobalFlags keeps
// this table complete; TestGlobalFlagUseMatchesSuggestedSelectors keeps it
// in step with the flags suggested commands repeat (suggest.Selectors).
var GlobalFlagUse = func() map[string]map[string]bool {
	home := []string{"home"}
	repo := []string{"repo"}
	m := map[string]map[string]bool{
		// Cobra's own commands print a script or help text.
		"help": flagSet(), "completion": flagSet(),
		"completion bash": flagSet(), "completion zsh": flagSet(),
		"completion fish": flagSet(), "completion powershell": flagSet(),
		// version and dev relay touch neither the home nor other relays.
		"version":   flagSet(outputFlags),
		"dev relay": flagSet(outputFlags),
		// The account and cache commands live in the roster home.
		"login": flagSet(outputFlags, home), "logout": flagSet(outputFlags, home),
		"whoami":     flagSet(outputFlags, home),
		"cache info": flagSet(outputFlags, home), "cache clear": flagSet(outputFlags, home),
	}
	// The hooks bake --home and --relay into the files they write (status
	// compares them). The hidden `hooks run` the hook files call is not in
	// the table: it takes what the hooks pass (--offline, --timeout).
	for _, c := range []string{"hooks install", "hooks status", "hooks uninstall"} {
		m[c] = flagSet(outputFlags, home, []string{"relay"})
	}
	for _, c := range []string{"repo", "repo health", "repo graph", "repo history", "repo init", "repo edit", "repo accept", "repo leave", "repo follow-lead", "repo state publish"} {
		m[c] = flagSet(outputFlags, networkFlags, home, repo)
	}
	// check-event finds its repository through the event (--repo overrides);
	// it needs every relay's answer, so never --offline.
	m["repo check-event"] = flagSet(outputFlags, []string{"relay", "timeout", "deadline"}, home, repo)
	for _, c := range []string{"project show", "project relate", "project unrelate", "group show",
		"project create", "project update", "project delete", "project list", "group list", "group members", "group join", "group leave", "workspace create", "workspace list",
		"workspace show", "workspace import", "workspace grant", "workspace revoke", "workspace move", "workspace unassign",
		"workspace section add", "workspace section remove", "workspace section rename", "workspace section reorder", "workspace section move"} {
		m[c] = flagSet(outputFlags, networkFlags, home)
	}
	return m
}()

// CommandKey is cmd's path without the root's name: "repo health".
func CommandKey(cmd *cobra.Command) string {
	return strings.TrimPrefix(strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()), " ")
}

// UsesGlobalFlag reports whether cmd reads the global flag name. A command
// group uses what any of its subcommands uses (for its help); a command
// outside the table (cobra's hidden __complete) is not checked.
func UsesGlobalFlag(cmd *cobra.Command, name string) (uses, known bool) {
	if use, ok := GlobalFlagUse[CommandKey(cmd)]; ok {
		return use[name], true
	}
	if !cmd.HasSubCommands() {
		return false, false
	}
	for _, sub := range cmd.Commands() {
		if u, k := UsesGlobalFlag(sub, name); u && k {
			return true, true
		}
	}
	return false, true
}

// whoUses says, for the refusal, which commands read a global flag.
var whoUses = map[string]string{
	"repo":        "only roster repo and its subcommands read a repository",
	"relay":       "only the repo, project, group and workspace commands read relays",
	"offline":     "only the repo, project, group and workspace commands read relays",
	"timeout":     "only the repo, project, group and workspace commands read relays",
	"home":        "it uses no roster home",
	"json":        "it prints no JSON",
	"jq":          "it prints no JSON",
	"json-fields": "it prints no JSON",
}

// RefuseUnusedGlobalFlags is exit 2 for a global flag the user gave to a
// command that would ignore it. A group's own run (its help, or its
// unknown-subcommand error) is left to the group.
func RefuseUnusedGlobalFlags(cmd *cobra.Command) error {
	if _, ok := GlobalFlagUse[CommandKey(cmd)]; !ok {
		return nil
	}
	var refused []string
	cmd.Root().PersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Changed {
			if uses, _ := UsesGlobalFlag(cmd, f.Name); !uses {
				refused = append(refused, f.Name)
			}
		}
	})
	if len(refused) == 0 {
		return nil
	}
	sort.Strings(refused)
	// One reason for the flags that share it, in the order of the flags.
	var reasons []string
	byReason := map[string][]string{}
	for _, f := range refused {
		r := whoUses[f]
		if byReason[r] == nil {
			reasons = append(reasons, r)
		}
		byReason[r] = append(byReason[r], "--"+f)
	}
	var parts []string
	for _, r := range reasons {
		parts = append(parts, fmt.Sprintf("%s (%s)", strings.Join(byReason[r], " or "), r))
	}
	drop := "drop it"
	if len(refused) > 1 {
		drop = "drop them"
	}
	return &ExitError{Code: ExitUsage, Kind: "usage",
		Err:      fmt.Errorf("%s does not take %s: %s", cmd.CommandPath(), strings.Join(parts, " nor "), drop),
		Details:  map[string]any{"command": cmd.CommandPath(), "flags": prefixed(refused)},
		Commands: []suggest.Command{HelpFor(cmd)}}
}

func prefixed(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "--" + n
	}
	return out
}

// HideUnusedGlobalFlags hides, for cmd's help, the global flags it does not
// read. Each invocation builds its own command tree, so hiding a shared
// persistent flag affects only this help.
func HideUnusedGlobalFlags(cmd *cobra.Command) {
	if !cmd.HasParent() {
		return
	}
	cmd.Root().PersistentFlags().VisitAll(func(f *pflag.Flag) {
		if uses, known := UsesGlobalFlag(cmd, f.Name); known && !uses {
			f.Hidden = true
		}
	})
}
