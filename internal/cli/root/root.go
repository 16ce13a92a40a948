package root

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/help"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/settings"
	"github.com/roster-cli/roster/suggest"
	"github.com/spf13/cobra"
)

// NewRootCmd builds the whole command tree of t.
func NewRootCmd(a *cmdutil.Factory, t Tree) *cobra.Command { return NewRootCmdFor(a, t, nil) }

// NewRootCmdFor builds the command tree an invocation with args needs: when
// args name one of t's command groups, the root with that group
// alone, because building every group's commands and flags (and cobra's
// completion command) is start-up work the other groups' commands do not
// need (docs/PERFORMANCE.md, "Start-up"). Anything else (no group, help,
// completion, --version, an unknown or misspelt command that is answered
// with suggestions from the whole tree) gets the whole tree. The group
// behaves the same either way: its help, flags, errors and suggestions
// only involve itself and the root.
func NewRootCmdFor(a *cmdutil.Factory, t Tree, args []string) *cobra.Command {
	root := &cobra.Command{
		Use:   "roster",
		Short: "Maintainer graphs for Git repositories on Nostr, and relay-authoritative workspaces",
		Long: `roster answers "who maintains this repository, who leads it, and is it healthy?"
for Git repositories announced on Nostr (NIP-34), previews and signs one
membership change at a time, and reads and writes workspace and project state.

Help topics: roster help environment, roster help exit-codes,
roster help formatting.`,
		Example: `  roster repo                      # who maintains the repository this checkout points at
  roster repo --json               # the same, as roster.repo/v2 JSON
  roster repo health --strict      # for CI: exit 5 on errors (and warnings)
  roster dev relay --seed demo     # a local relay to try roster offline`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// Suggestions are roster's own (unknownCommandError), at every level.
		DisableSuggestions: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			a.Running = cmd
			cmdutil.ApplyRepoEnv(a, cmd) // cmdutil/repo_env.go
			if err := a.StartDeadline(cmd); err != nil {
				return err
			}
			if err := cmdutil.PrepareOutput(a); err != nil {
				return err
			}
			if err := checkGlobalFlags(a, cmd); err != nil {
				return err
			}
			return checkRelaySettings(a, cmd, args)
		},
	}
	root.SetIn(a.Io.In)
	root.SetOut(a.Io.Out)
	root.SetErr(a.Io.Err)
	// The flags commands share (--json, --repo, --relay, ...) are added by
	// the commands that read them (cmdutil/flags.go); the root has none.
	a.Opts.Timeout = cmdutil.DefaultTimeout
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return flagError(cmd, err) })

	if build := t.Group(args); build != nil {
		root.CompletionOptions.DisableDefaultCmd = true
		root.SetHelpCommand(help.NewHelpCmd(a, root))
		root.AddCommand(build(a))
		rejectUnknownSubcommands(root)
		explainArgErrors(root)
		// No flag value completions: completing (cobra's __complete)
		// always builds the whole tree.
		return root
	}

	// --version prints what `roster version` prints. It is the root's own
	// flag, which no group's command parses, so only the whole tree (no
	// group named) reads the build information and formats it.
	// (The template is the finished text: it holds no "{{".)
	v := help.CurrentVersion()
	var vt strings.Builder
	help.PrintVersion(&vt, v)
	root.Version = v.Version
	root.SetVersionTemplate(vt.String())

	addCompletionExamples(root)
	root.SetHelpCommand(help.NewHelpCmd(a, root))

	for _, name := range t.names() {
		root.AddCommand(t[name].New(a))
	}
	rejectUnknownSubcommands(root)
	explainArgErrors(root)
	cmdutil.RegisterFlagCompletions(a, root)
	return root
}

// Group is the builder of the group args name first, skipping the shared
// flags before it (cmdutil.SharedFlags says which take a value); nil when
// args name no group of t.
func (t Tree) Group(args []string) func(*cmdutil.Factory) *cobra.Command {
	for i := 0; i < len(args); i++ {
		switch arg := args[i]; {
		case arg == "--":
			return nil
		case strings.HasPrefix(arg, "-"):
			if sharedTakesValue(arg) {
				i++
			}
		default:
			return t[arg].New
		}
	}
	return nil
}

// sharedTakesValue is whether arg is a shared flag (cmdutil.SharedFlags)
// given without "=" that takes the next argument as its value.
func sharedTakesValue(arg string) bool {
	if !strings.HasPrefix(arg, "--") || strings.Contains(arg, "=") {
		return false
	}
	f := cmdutil.SharedFlags().Lookup(strings.TrimPrefix(arg, "--"))
	return f != nil && f.NoOptDefVal == ""
}

// HoistLeadingFlags moves the shared flags given before the command's
// name (`roster --offline hooks run ...`, as the installed hook files call
// it; `roster --json repo`) right after the command's words: the command
// parses them as its own, and one it does not read is its unknown flag.
// Every argument keeps its order otherwise (a repeated --relay stays in
// the order given).
func HoistLeadingFlags(root *cobra.Command, args []string) []string {
	i := 0
	for i < len(args) {
		arg := args[i]
		if !strings.HasPrefix(arg, "--") || arg == "--" || cmdutil.SharedFlags().Lookup(strings.SplitN(arg[2:], "=", 2)[0]) == nil {
			break
		}
		if sharedTakesValue(arg) {
			i++
		}
		i++
	}
	if i == 0 || i >= len(args) {
		return args
	}
	lead, rest := args[:i], args[i:]
	j := 0 // past the command's words
	for c := root; j < len(rest); j++ {
		sub := subcommand(c, rest[j])
		if sub == nil {
			break
		}
		c = sub
	}
	out := make([]string, 0, len(args))
	out = append(append(append(out, rest[:j]...), lead...), rest[j:]...)
	return out
}

// subcommand is c's subcommand named (or aliased) name, nil when none is.
func subcommand(c *cobra.Command, name string) *cobra.Command {
	for _, sub := range c.Commands() {
		if sub.Name() == name || sub.HasAlias(name) {
			return sub
		}
	}
	return nil
}

// checkGlobalFlags rejects shared flag values no command can use. It runs
// before every command (root's PersistentPreRunE).
func checkGlobalFlags(a *cmdutil.Factory, cmd *cobra.Command) error {
	if cmdutil.Reads(cmd, "timeout") && a.Opts.Timeout <= 0 {
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage",
			Err:      fmt.Errorf("--timeout must be a positive duration, not %s", a.Opts.Timeout),
			Commands: []suggest.Command{{Argv: []string{"--timeout", "30s"}, Comment: "or leave it out for the default, 10s"}}}
	}
	dir, err := a.ConfigDir()
	if err != nil {
		return nil // commands that need the directories report this themselves
	}
	a.Config, err = cmdutil.LoadConfig(dir)
	return err
}

// checkRelaySettings refuses, for a command that reads relays, a relay
// value it would drop or mangle: --relay, else ROSTER_RELAYS, else
// config.yaml's relays (the first that is set is the one used). Exit 2
// naming the setting and the value. The command it suggests is the same
// one (its arguments, and the user's --repo and --home) with a relay URL.
func checkRelaySettings(a *cmdutil.Factory, cmd *cobra.Command, args []string) error {
	if !cmdutil.Reads(cmd, "relay") {
		return nil
	}
	var where string
	var values []string
	switch env := a.Io.Getenv("ROSTER_RELAYS"); {
	case len(a.Opts.Relays) > 0:
		where, values = "--relay", a.Opts.Relays
	case env != "":
		where, values = "ROSTER_RELAYS", strings.Split(env, ",")
	case len(a.Config.Relays) > 0:
		where, values = settings.ConfigFile+" relays", a.Config.Relays
	default:
		return nil
	}
	if err := settings.CheckRelays(where, values); err != nil {
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage", Err: err,
			Commands: []suggest.Command{suggest.Command{Argv: append(append(strings.Fields(cmd.CommandPath()), args...), cmdutil.Typed{Keep: func(name string) bool { return !slices.Contains([]string{"relay", "repo", "home"}, name) },
				Omit: func(v string) bool { return secretIn(v, false) != "" }}.Flags(cmd)...)}.
				With("--relay", "wss://<relay>").Because("a relay URL: ws://host[:port] or wss://host")}}
	}
	return nil
}

// rejectUnknownSubcommands makes each command group (cache, dev, ...) refuse
// an unknown subcommand with exit 2 instead of printing its help and exiting
// 0, which would let a typo in a script pass silently. Without arguments a
// group still prints its help. A command that runs itself and has
// subcommands (repo) takes no positional arguments, so a word after it is
// an unknown subcommand too. Either way the error suggests what was meant
// (cobra only does so at the top level).
func rejectUnknownSubcommands(c *cobra.Command) {
	for _, sub := range c.Commands() {
		rejectUnknownSubcommands(sub)
	}
	if !c.HasSubCommands() || !c.HasParent() {
		return
	}
	if c.Runnable() {
		own := c.Args
		c.Args = func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommandError(cmd, args[0])
			}
			if own != nil {
				return own(cmd, args)
			}
			return nil
		}
		return
	}
	c.Args = cobra.ArbitraryArgs
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return cmd.Help()
		}
		return unknownCommandError(cmd, args[0])
	}
}

// unknownCommandError is exit 2 for a word that is no subcommand of parent:
// what it may have meant, and what parent has.
func unknownCommandError(parent *cobra.Command, typed string) *cmdutil.ExitError {
	var names []string
	for _, s := range parent.Commands() {
		if s.IsAvailableCommand() {
			names = append(names, s.Name())
		}
	}
	maybe := cmdutil.CommandSuggestions(parent, typed)
	msg := fmt.Sprintf("unknown command %q for %q", typed, parent.CommandPath())
	var cmds []suggest.Command
	if len(maybe) > 0 {
		msg += fmt.Sprintf(": did you mean %s?", strings.Join(maybe, " or "))
		for _, m := range maybe {
			cmds = append(cmds, suggest.Command{Argv: append(strings.Fields(parent.CommandPath()), append(strings.Fields(m), "--help")...)}.Pin())
		}
	}
	switch {
	case parent.HasParent() && len(maybe) > 0:
		msg += fmt.Sprintf(" It has %s", strings.Join(names, ", "))
	case parent.HasParent():
		msg += fmt.Sprintf(": it has %s", strings.Join(names, ", "))
	}
	return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage", Err: errors.New(msg),
		Details:  map[string]any{"command": parent.CommandPath(), "unknown": typed, "suggestions": cmdutil.OrEmptySlice(maybe)},
		Commands: append(cmds, cmdutil.HelpFor(parent))}
}

// RunContext runs the command line args with t's commands under ctx and
// returns the process exit code: every command's cmd.Context() is ctx, so
// an interrupt (main cancels ctx on SIGINT and SIGTERM) stops relay waits.
// Tests call it in-process with their own streams and seams.
func RunContext(ctx context.Context, t Tree, args []string, s *cmdutil.IoStreams, sm cmdutil.Seams) int {
	a := &cmdutil.Factory{Io: s, Seams: sm}
	return Execute(a, ctx, t, NewRootCmdFor(a, t, args), args)
}

// Execute runs root (a's command tree, built from t) with args and
// returns the exit code.
func Execute(a *cmdutil.Factory, ctx context.Context, t Tree, root *cobra.Command, args []string) int {
	var cmd *cobra.Command
	var err error
	if se := RefuseSecretArguments(root, args); se != nil { // secret_args.go: positions as typed
		err = se
	} else {
		if len(args) == 0 || (args[0] != cobra.ShellCompRequestCmd && args[0] != cobra.ShellCompNoDescRequestCmd) {
			args = HoistLeadingFlags(root, args)
		}
		args = t.JsonValueArgs(root, args) // json_value.go: --json a,b
		root.SetArgs(args)
		cmd, err = root.ExecuteContextC(ctx)
	}
	err = a.StoppedErr(ctx, err)
	a.StopDeadline()
	if err == nil {
		return cmdutil.ExitOK
	}
	if m := cmdutil.TopLevelUnknown().FindStringSubmatch(err.Error()); m != nil {
		err = unknownCommandError(root, m[1])
	}
	ee := cmdutil.AsExitError(err)
	if ee.Kind == "usage" && len(ee.Commands) == 0 && cmd != nil {
		// A usage error always names where the right usage is.
		ee.Commands = []suggest.Command{cmdutil.HelpFor(cmd)}
	}
	if !a.Opts.JSON {
		// Cobra stops before parsing flags on an unknown command; honour
		// --json (and the flags that imply it) anyway.
		for _, arg := range args {
			if arg == "--json" || arg == "--json=true" {
				a.Opts.JSON = true
			}
			if arg == "--jq" || strings.HasPrefix(arg, "--jq=") || arg == "--json-fields" || strings.HasPrefix(arg, "--json-fields=") {
				a.Opts.JSON, a.Selecting = true, true
			}
		}
	}
	if !ee.Printed {
		render.PrintError(a, ee)
	}
	return ee.Code
}

// addCompletionExamples creates cobra's default `completion` command now,
// rather than at Execute, so its help can carry examples like every other
// command's. It must run before the other commands are added: cobra only
// creates it for a root that has subcommands, so a placeholder is added and
// removed around the call.
func addCompletionExamples(root *cobra.Command) {
	placeholder := &cobra.Command{Use: "placeholder", Hidden: true, Run: func(*cobra.Command, []string) {}}
	root.AddCommand(placeholder)
	root.InitDefaultCompletionCmd()
	root.RemoveCommand(placeholder)
	examples := map[string]string{
		"completion": `  source <(roster completion bash)     # this bash session
  roster completion zsh > "${fpath[1]}/_roster"`,
		"bash": `  source <(roster completion bash)
  roster completion bash > /etc/bash_completion.d/roster   # every new shell`,
		"zsh":        `  roster completion zsh > "${fpath[1]}/_roster"`,
		"fish":       `  roster completion fish > ~/.config/fish/completions/roster.fish`,
		"powershell": `  roster completion powershell | Out-String | Invoke-Expression`,
	}
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Example = examples["completion"]
		for _, sub := range c.Commands() {
			sub.Example = examples[sub.Name()]
		}
	}
}
