package cmdutil

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/roster-cli/roster/suggest"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The flags several commands share are added by the commands that read
// them, with these helpers: a command that does not read --repo does not
// have it, and cobra refuses it as an unknown flag (exit 2, naming the
// command and where its flags are listed). Each helper binds the flag to
// the invocation's options (Factory.Opts), where the shared code
// (selectors, relays, output) reads it.

// DefaultTimeout is --timeout when it is not given (and the timeout of a
// command that has no --timeout).
const DefaultTimeout = 10 * time.Second

// AddOutputFlags adds --json, --jq and --json-fields (json_output.go).
func AddOutputFlags(cmd *cobra.Command, o *globalOptions) {
	f := cmd.Flags()
	f.BoolVar(&o.JSON, "json", false, "print machine-readable JSON (roster help formatting)")
	f.StringVar(&o.JQ, "jq", "", "print what a jq `expression` selects from the JSON (implies --json)")
	StringSliceVar(f, &o.JSONFields, "json-fields", "print only these top-level `fields` of the JSON, comma-separated (implies --json)")
}

// AddRepoFlag adds --repo: which repository (the checkout's remote
// otherwise).
func AddRepoFlag(cmd *cobra.Command, o *globalOptions) {
	cmd.Flags().StringVar(&o.Repo, "repo", "", "repository: remote name, naddr or nostr:// URL")
}

// AddRelayFlags adds --relay (repeatable): the relays to ask instead of
// the discovered ones; and --debug, the request log of the relays the
// command talks to (ROSTER_DEBUG=1 too).
func AddRelayFlags(cmd *cobra.Command, o *globalOptions) {
	StringArrayVar(cmd.Flags(), &o.Relays, "relay", "relay URL (repeatable; replaces relay discovery)")
	cmd.Flags().BoolVar(&o.Debug, "debug", false, "log each relay request and a summary of its answer to stderr (never secrets; also ROSTER_DEBUG=1)")
}

// AddOfflineFlag adds --offline: answer from the local cache only.
func AddOfflineFlag(cmd *cobra.Command, o *globalOptions) {
	cmd.Flags().BoolVar(&o.Offline, "offline", false, "answer from the local cache only")
}

// AddTimeoutFlag adds --timeout, the network timeout per relay.
func AddTimeoutFlag(cmd *cobra.Command, o *globalOptions) {
	cmd.Flags().DurationVar(&o.Timeout, "timeout", DefaultTimeout, "network timeout per relay")
}

// AddDeadlineFlag adds --deadline, the cap on the command's wall time
// (deadline.go).
func AddDeadlineFlag(cmd *cobra.Command, o *globalOptions) {
	cmd.Flags().DurationVar(&o.Deadline, "deadline", 0, "cap on the whole command's wall time (default: none; see docs/usage.md)")
}

// AddHomeFlag adds --home, the one directory for config, login and cache.
func AddHomeFlag(cmd *cobra.Command, o *globalOptions) {
	cmd.Flags().StringVar(&o.Home, "home", "", "one directory for config, login and cache (default $ROSTER_HOME, else the XDG directories)")
}

// AddNetworkFlags adds what a command that reads relays takes: --relay,
// --offline, --timeout and --deadline.
func AddNetworkFlags(cmd *cobra.Command, o *globalOptions) {
	AddRelayFlags(cmd, o)
	AddOfflineFlag(cmd, o)
	AddTimeoutFlag(cmd, o)
	AddDeadlineFlag(cmd, o)
}

// Reads reports whether cmd has the flag name (its own or inherited): the
// command reads it.
func Reads(cmd *cobra.Command, name string) bool {
	return cmd.Flags().Lookup(name) != nil || cmd.InheritedFlags().Lookup(name) != nil
}

// SharedFlags are the flags the helpers above add, on one scratch flag
// set: what may come before a command's name (root.HoistLeadingFlags) is
// read from it, so which of them take a value is said once, by the
// helpers.
var SharedFlags = sync.OnceValue(func() *pflag.FlagSet {
	c := &cobra.Command{Use: "shared"}
	var o globalOptions
	AddOutputFlags(c, &o)
	AddRepoFlag(c, &o)
	AddNetworkFlags(c, &o)
	AddHomeFlag(c, &o)
	return c.Flags()
})

// Flags names a set of the shared flags, for AddFlags.
type Flags uint

const (
	OutputFlags  Flags = 1 << iota // --json, --jq, --json-fields
	RepoFlag                       // --repo
	RelayFlags                     // --relay
	OfflineFlag                    // --offline
	TimeoutFlag                    // --timeout
	DeadlineFlag                   // --deadline
	HomeFlag                       // --home
	// NetworkFlags are a relay reader's: --relay, --offline, --timeout,
	// --deadline.
	NetworkFlags = RelayFlags | OfflineFlag | TimeoutFlag | DeadlineFlag
	// RepoCommandFlags are what every command under roster repo reads.
	RepoCommandFlags = OutputFlags | RepoFlag | NetworkFlags | HomeFlag
)

// AddFlags adds the shared flags of set to cmd (the helpers above) and
// returns cmd. A flag of that name the command defines itself is kept:
// the command does not read the shared one.
func AddFlags(cmd *cobra.Command, o *globalOptions, set Flags) *cobra.Command {
	for _, h := range []struct {
		f    Flags
		name string
		add  func(*cobra.Command, *globalOptions)
	}{{OutputFlags, "json", AddOutputFlags}, {RepoFlag, "repo", AddRepoFlag}, {RelayFlags, "relay", AddRelayFlags}, {OfflineFlag, "offline", AddOfflineFlag},
		{TimeoutFlag, "timeout", AddTimeoutFlag}, {DeadlineFlag, "deadline", AddDeadlineFlag}, {HomeFlag, "home", AddHomeFlag}} {
		if set&h.f != 0 && cmd.Flags().Lookup(h.name) == nil {
			h.add(cmd, o)
		}
	}
	return cmd
}

// AddLeafFlags adds set to every command under cmd that has no
// subcommands: a noun whose commands all read the same flags (project,
// group, workspace) says so once, and a command added to it gets them.
func AddLeafFlags(cmd *cobra.Command, o *globalOptions, set Flags) {
	for _, c := range cmd.Commands() {
		if c.HasSubCommands() {
			AddLeafFlags(c, o, set)
		} else {
			AddFlags(c, o, set)
		}
	}
}

// CommandKey is cmd's path without the root's name: "repo health".
func CommandKey(cmd *cobra.Command) string {
	return strings.TrimPrefix(strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()), " ")
}

// UnknownFlagError is the refusal of a flag cmd does not have (pflag's
// "unknown flag: --x"), nil for any other error: a shared flag exists only
// on the commands that read it, so one given to another command would be
// ignored. Exit 2 naming the command and the flag, and where its flags
// are listed.
func UnknownFlagError(cmd *cobra.Command, err error) *ExitError {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return nil
	}
	path := cmd.CommandPath()
	return &ExitError{Code: ExitUsage, Kind: "usage",
		Err:      fmt.Errorf("%s does not take --%s: drop it (%s --help lists the flags it takes)", path, name, path),
		Details:  map[string]any{"command": path, "flags": []string{"--" + name}},
		Commands: []suggest.Command{HelpFor(cmd)}}
}
