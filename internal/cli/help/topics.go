package help

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/suggest"
	"github.com/spf13/cobra"
)

// Help topics: `roster help <topic>` for what is no command's own help.
// The exit-code table lives here once; docs/exit-codes.md lists the same
// codes and meanings (TestExitCodeTopicMatchesDocs).

// ExitCodeMeanings are roster's exit codes, as docs/exit-codes.md's first
// table lists them.
var ExitCodeMeanings = []struct {
	Code    int
	Meaning string
}{
	{cmdutil.ExitOK, "success"},
	{cmdutil.ExitFailure, "unexpected failure"},
	{cmdutil.ExitUsage, "usage: bad flag, argument, npub or coordinate; no signer configured"},
	{cmdutil.ExitRefused, "refused by a safety check; nothing was published"},
	{cmdutil.ExitIncomplete, "not enough evidence (relays incomplete, coordinate not found); nothing was published"},
	{cmdutil.ExitUnhealthy, "repo health found errors (with --strict also warnings the current maintainers can act on), project health in a member repository; repo check-event: the event's author was not authorized"},
	{cmdutil.ExitUnverified, "published, but read-back verification did not complete (also: stopped by --deadline or an interrupt after the event was sent to a relay)"},
	{cmdutil.ExitInterrupted, "interrupted (SIGINT, SIGTERM) before anything was sent"},
}

func exitCodesTopic() string {
	var b strings.Builder
	b.WriteString("Exit codes\n\n")
	for _, e := range ExitCodeMeanings {
		fmt.Fprintf(&b, "  %d  %s\n", e.Code, e.Meaning)
	}
	b.WriteString(`
A read (roster repo) that got answers from only some relays still exits 0:
it prints what it has, marks it "complete": false, and names the relays
that failed. repo health and every write treat incomplete evidence as
exit 4.

repo health --strict fails (5) on the warnings whose actor is a current
maintainer (or any maintainer), not on author-scoped findings about people
outside the current roster (a removed maintainer's stale announcement, an
invitee's records) unless --strict=all: under --strict the exit code with
no key, as CI runs it, equals the one with any current maintainer's key. A
key holder still gets 5 for their own author-scoped errors. With --strict
an advertised Git server that could not be listed is exit 4. repo
check-event with several references exits with the worst verdict's code
(1, then 5, 4, 2, 0).

With --json an error is printed on stdout as {"error": {"code",
"message", "details", "commands"}} (with --jq or --json-fields the same
object on stderr); otherwise on stderr
as text, followed by the commands to run ("run: ..."). The error's code
("usage", "no-signer", "incomplete", ...) is stable: branch on it rather
than on the message. docs/exit-codes.md lists every code.
`)
	return b.String()
}

const EnvironmentTopic = `Environment variables

  ROSTER_DEBUG       1: log each relay request and a summary of its answer
                     to stderr, as --debug does (never content, signatures
                     or keys).
  ROSTER_HOME        one directory for everything: config.yaml, the account
                     record and key files, the cache (cache.db). --home wins
                     over it. Unset: the XDG directories below.
  ROSTER_RELAYS      relays to ask when no --relay is given, comma-separated
                     (wss://a.example,wss://b.example); it wins over the
                     relays of config.yaml.
  ROSTER_REPO        the repository, as --repo takes it (a remote name, an
                     naddr or a nostr:// URL), for the commands that read
                     one; --repo wins over it.
  ROSTER_SECRET_KEY  an nsec or 64-hex key to sign with instead of the stored
                     login, for scripts and CI. roster never stores it.
  XDG_CONFIG_HOME    config.yaml is in $XDG_CONFIG_HOME/roster
                     (default ~/.config/roster).
  XDG_DATA_HOME      the login (account.json, key.ncryptsec) is in
                     $XDG_DATA_HOME/roster (default ~/.local/share/roster).
  XDG_CACHE_HOME     the cache is $XDG_CACHE_HOME/roster/cache.db (default
                     ~/.cache/roster). A login or config.yaml an older roster
                     left there is moved out once, with a notice.
  HOME               where the ~ defaults above are (on Windows, when HOME
                     is unset, USERPROFILE is used).
  DBUS_SESSION_BUS_ADDRESS
                     on Linux, the session bus the OS keyring (Secret Service:
                     GNOME Keyring, KeePassXC) is reached through for login.
  GIT_SSH_COMMAND    how the object check of writes reaches ssh:// (and
  GIT_SSH            scp-like host:path) Git servers, as git uses them (else
                     core.sshCommand, else ssh); roster always adds
                     -o BatchMode=yes, so ssh never prompts.
  GITHUB_STEP_SUMMARY
                     with --format github (repo health, check-event, state):
                     the file a Markdown job summary is appended to.

Colour and terminal (the conventions of gh, git and ls):

  NO_COLOR           any non-empty value: no colour, whatever else is set.
  CLICOLOR           0: no colour.
  CLICOLOR_FORCE     anything but 0: colour even when stdout is a pipe or a
                     file (over CLICOLOR=0 and TERM=dumb; NO_COLOR still wins).
  TERM               dumb: no colour and no "reading relays" progress line.
  COLUMNS            the terminal's width: human rows longer than it continue
                     on the next line, broken between words (never inside an
                     npub). Unset: the terminal's own width.

Without any of them, stdout is coloured when it is a terminal, and the
progress line is drawn when stderr is one. JSON is never coloured.
`

const formattingTopic = `Formatting: JSON output for scripts

  --json             print the command's result as one JSON object on stdout
                     instead of text. It names its "schema"
                     ("roster.repo/v2", ...); a field is only ever added in a
                     new schema version. docs/json.md describes every schema.
  --json-fields a,b  print only these top-level fields of that object, in the
                     order given. A field the object does not have is exit 2,
                     and the message lists the fields it has.
  --json a,b         the same as --json-fields a,b: taken as --json=a,b, or
                     when every name of the next argument is a top-level
                     field of the command's object (not a subcommand), so
                     roster repo check-event --json nevent1... keeps its
                     meaning.
  --jq <expression>  run a jq expression over that object (jq's language,
                     built in: no jq program needed) and print each result on
                     its own line: a string as plain text, anything else as
                     indented JSON. An expression that does not parse is
                     exit 2 before anything runs; one that fails on the
                     output is exit 2 too, naming the expression.

--jq and --json-fields imply --json; given both, the fields are selected
first and the expression runs over what is left. They apply to the object a
command prints, whatever its exit code (repo health's exit 5 prints its
object too). An error is printed whole, as the {"error": {...}} object of
roster help exit-codes, so a script can branch on its code: on stdout with
--json, on stderr with --jq or --json-fields (stdout then carries only the
selected output, or nothing). An expression
that fails on the result of a write is reported after the write was
published: check with roster repo.

Examples:
  roster repo --jq '.maintainers[] | select(.status == "confirmed") | .npub'
  roster repo health --json-fields healthy,errors,warnings
  roster version --jq .commit
  roster repo --json | jq .lead_maintainer      # an external jq works too
`

// helpTopics are the topics of `roster help`, in the order listed. A
// topic's text is built when it is printed, not when the program starts.
var helpTopics = []struct {
	Name, Short string
	Text        func() string
}{
	{"environment", "Environment variables roster reads (home, relays, key, colour)", func() string { return EnvironmentTopic }},
	{"exit-codes", "Exit codes and the JSON error object", exitCodesTopic},
	{"formatting", "JSON output: --json, --json-fields and --jq", func() string { return formattingTopic }},
}

func topicNames() []string {
	var out []string
	for _, t := range helpTopics {
		out = append(out, t.Name)
	}
	return out
}

// NewHelpCmd replaces cobra's help command: `roster help` with no argument
// is roster's help, with a topic that topic, with a command path that
// command's help, and anything else exit 2 with what exists.
func NewHelpCmd(a *cmdutil.Factory, root *cobra.Command) *cobra.Command {
	return NewCmdHelp(a, root, nil)
}

// HelpOptions are `roster help` as its arguments gave it: the command path
// or topic asked for.
type HelpOptions struct {
	Factory *cmdutil.Factory
	Args    []string
}

// NewCmdHelp builds roster help for root; runF, when given, runs instead
// of printing with the parsed options (tests).
func NewCmdHelp(a *cmdutil.Factory, root *cobra.Command, runF func(context.Context, *HelpOptions) error) *cobra.Command {
	return &cobra.Command{
		Use:   "help [command | topic]",
		Short: "Help about any command, or a topic: " + strings.Join(topicNames(), ", "),
		Long: `Help about any command (roster help repo health), or one of these topics:

` + topicList() + `
Every command also takes --help.`,
		Example: `  roster help repo health
  roster help exit-codes
  roster help environment
  roster help formatting`,
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			var out []cobra.Completion
			cmd, _, err := root.Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			if len(args) == 0 {
				for _, t := range helpTopics {
					if strings.HasPrefix(t.Name, toComplete) {
						out = append(out, cobra.CompletionWithDesc(t.Name, t.Short))
					}
				}
			}
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					out = append(out, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			if runF != nil {
				return runF(c.Context(), &HelpOptions{Factory: a, Args: args})
			}
			if len(args) == 0 {
				return root.Help()
			}
			if len(args) == 1 {
				for _, t := range helpTopics {
					if t.Name == args[0] {
						_, err := fmt.Fprint(a.Io.Out, t.Text())
						return err
					}
				}
			}
			cmd, rest, err := root.Find(args)
			if err == nil && len(rest) == 0 && cmd != root {
				cmd.InitDefaultHelpFlag()
				return cmd.Help()
			}
			return unknownHelpTopic(root, args)
		},
	}
}

func topicList() string {
	var b strings.Builder
	for _, t := range helpTopics {
		fmt.Fprintf(&b, "  %-12s %s\n", t.Name, t.Short)
	}
	return b.String()
}

// unknownHelpTopic is exit 2 naming what was asked, what it may have
// meant, and the topics and commands there are.
func unknownHelpTopic(root *cobra.Command, args []string) error {
	// The deepest command the words name, and the first word it does not know.
	parent, typed := root, args[0]
	for i, w := range args {
		next := subcommandNamed(parent, w)
		if next == nil {
			typed = args[i]
			break
		}
		parent = next
	}
	var maybe []string
	if parent == root {
		maybe = append(maybe, similar(typed, topicNames())...)
	}
	for _, s := range cmdutil.CommandSuggestions(parent, typed) {
		if !slices.Contains(maybe, s) {
			maybe = append(maybe, s)
		}
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "no help topic or command %q", strings.Join(args, " "))
	if len(maybe) > 0 {
		fmt.Fprintf(&msg, ": did you mean %s?", strings.Join(maybe, " or "))
	}
	var cmds []string
	for _, c := range parent.Commands() {
		if c.IsAvailableCommand() {
			cmds = append(cmds, c.Name())
		}
	}
	if parent == root {
		fmt.Fprintf(&msg, "\nhelp topics: %s", strings.Join(topicNames(), ", "))
		fmt.Fprintf(&msg, "\ncommands: %s", strings.Join(cmds, ", "))
	} else {
		fmt.Fprintf(&msg, "\n%s has: %s", parent.CommandPath(), strings.Join(cmds, ", "))
	}
	var run []suggest.Command
	for _, m := range maybe {
		words := append(strings.Fields(strings.TrimPrefix(parent.CommandPath(), root.Name())), strings.Fields(m)...)
		run = append(run, suggest.Roster(append([]string{"help"}, words...)...).Pin())
	}
	run = append(run, suggest.Roster("help").Pin())
	return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage", Err: fmt.Errorf("%s", msg.String()),
		Details:  map[string]any{"topics": topicNames(), "suggestions": cmdutil.OrEmptySlice(maybe)},
		Commands: run}
}

// subcommandNamed is c's available subcommand called (or aliased) name.
func subcommandNamed(c *cobra.Command, name string) *cobra.Command {
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() && (s.Name() == name || s.HasAlias(name)) {
			return s
		}
	}
	return nil
}

// similar are the names within two edits of typed, or that it is a prefix
// of, as cobra suggests commands.
func similar(typed string, names []string) []string {
	var out []string
	for _, n := range names {
		if cmdutil.Levenshtein(strings.ToLower(typed), n) <= 2 || (typed != "" && strings.HasPrefix(n, strings.ToLower(typed))) {
			out = append(out, n)
		}
	}
	return out
}
