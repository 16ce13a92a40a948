package cmdutil

import (
	"sort"
	"strings"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/settings"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/spf13/cobra"
)

// Shell completion of flag values: --repo offers the checkout's remote
// names and git config nostr.repo, --relay the configured relays
// (ROSTER_RELAYS, else config.yaml), --role the grantable workspace roles,
// --seed the dev relay's seeds. None of them completes file names.

func RegisterFlagCompletions(a *Factory, root *cobra.Command) {
	repo := func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return repoCompletions(a), cobra.ShellCompDirectiveNoFileComp
	}
	relay := func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return RelayCompletions(a), cobra.ShellCompDirectiveNoFileComp
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		// --repo and --relay are each command's own (flags.go).
		if c.LocalNonPersistentFlags().Lookup("repo") != nil {
			_ = c.RegisterFlagCompletionFunc("repo", repo)
		}
		if c.LocalNonPersistentFlags().Lookup("relay") != nil {
			_ = c.RegisterFlagCompletionFunc("relay", relay)
		}
		if c.LocalNonPersistentFlags().Lookup("role") != nil {
			_ = c.RegisterFlagCompletionFunc("role", fixedCompletions(roleCompletions()))
		}
		if c.LocalNonPersistentFlags().Lookup("seed") != nil {
			_ = c.RegisterFlagCompletionFunc("seed", fixedCompletions([]cobra.Completion{
				cobra.CompletionWithDesc("demo", "a repository with a lead, co-maintainer, invitation, removal, moderator and state")}))
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

func fixedCompletions(values []cobra.Completion) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

// roleCompletions are the roles `workspace grant --role` accepts.
func roleCompletions() []cobra.Completion {
	desc := map[sections.Role]string{
		sections.RoleViewer:  "reads the workspace",
		sections.RoleMover:   "also moves channels into sections",
		sections.RoleManager: "also adds, renames, reorders and removes sections (and moves channels)",
	}
	var out []cobra.Completion
	for _, r := range sections.GrantableRoles {
		out = append(out, cobra.CompletionWithDesc(string(r), desc[r]))
	}
	return out
}

// repoCompletions are the checkout's remote names (with their first URL)
// and its git config nostr.repo values; nothing outside a checkout.
func repoCompletions(a *Factory) []cobra.Completion {
	co, err := gitstate.Open(a.Io.Dir)
	if err != nil {
		return nil
	}
	var out []cobra.Completion
	for _, v := range co.NostrRepo() {
		out = append(out, cobra.CompletionWithDesc(v, "git config nostr.repo"))
	}
	remotes, err := co.Remotes()
	if err != nil {
		return out
	}
	names := make([]string, 0, len(remotes))
	for name := range remotes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		desc := "remote"
		if u := remotes[name].URLs; len(u) > 0 {
			desc = "remote " + u[0]
		}
		out = append(out, cobra.CompletionWithDesc(name, desc))
	}
	return out
}

// RelayCompletions are the relays roster asks by default (ROSTER_RELAYS,
// else config.yaml's, in the home --home names), never the --relay flags
// already typed.
func RelayCompletions(a *Factory) []cobra.Completion {
	cfg := a.Config
	if home, err := a.ConfigDir(); err == nil {
		if c, err := LoadConfig(home); err == nil {
			cfg = c
		}
	}
	source := "config.yaml"
	if strings.TrimSpace(a.Io.Getenv("ROSTER_RELAYS")) != "" {
		source = "ROSTER_RELAYS"
	}
	var out []cobra.Completion
	for _, r := range settings.Relays(nil, a.Io.Getenv, cfg) {
		out = append(out, cobra.CompletionWithDesc(r, source))
	}
	return out
}
