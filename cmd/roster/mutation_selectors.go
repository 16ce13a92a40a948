package main

import (
	"strings"

	"github.com/roster-cli/roster/preflight"
)

// withSelectors adds the user's --repo and --relay flags to a suggested
// roster command, so it runs against the same repository and relays as the
// command that suggested it: outside a checkout a `roster repo accept`
// without --repo fails with "no --repo given", and without --relay it would
// ask other relays than the ones the user chose. The flags go before a
// trailing "  # comment"; anything that is not a roster command (git config,
// prose) is returned unchanged, as is a command that already names its
// repository or relays (a deliberate single-relay check keeps its one relay).
func (a *app) withSelectors(command string) string {
	flags := a.repoFlag() + a.relayFlags()
	if flags == "" || !strings.HasPrefix(command, "roster ") ||
		strings.Contains(command, " --repo ") || strings.Contains(command, " --relay ") {
		return command
	}
	cmd := command
	if i := strings.Index(command, "  #"); i > 0 {
		cmd = command[:i]
	} else if i := strings.Index(command, "   ("); i > 0 {
		cmd = command[:i]
	}
	cmd = strings.TrimRight(cmd, " ")
	return cmd + flags + command[len(cmd):]
}

// withSelectorsAll applies withSelectors to each command.
func (a *app) withSelectorsAll(commands []string) []string {
	if commands == nil {
		return nil
	}
	out := make([]string, len(commands))
	for i, c := range commands {
		out[i] = a.withSelectors(c)
	}
	return out
}

// guidanceWithSelectors adds the flags to the command of each guidance line
// "<what> with: <command>" (and to a line that is only an indented command).
func (a *app) guidanceWithSelectors(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if what, cmd, ok := preflight.GuidanceCommand(l); ok {
			out[i] = what + " with: " + a.withSelectors(cmd)
			continue
		}
		trimmed := strings.TrimLeft(l, " ")
		out[i] = l[:len(l)-len(trimmed)] + a.withSelectors(trimmed)
	}
	return out
}
