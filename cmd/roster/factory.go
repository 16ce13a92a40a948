package main

import (
	"net/http"
	"sync/atomic"
	"time"

	"github.com/roster-cli/roster/internal/jsonout"
	"github.com/roster-cli/roster/settings"
	"github.com/roster-cli/roster/signer"
	"github.com/spf13/cobra"
)

// globalOptions are the flags every command shares (docs/architecture.md
// "Command-line contract").
type globalOptions struct {
	Relays  []string
	Repo    string
	JSON    bool
	Offline bool
	Timeout time.Duration
	Home    string
	// JQ and JSONFields select from the JSON output (json_output.go).
	JQ         string
	JSONFields []string
	// Deadline caps the whole command's wall time (deadline.go); 0: none.
	Deadline time.Duration
}

// app is the state one invocation of roster shares across its commands.
type app struct {
	io   *ioStreams
	opts globalOptions
	// config is config.yaml in the config directory, loaded before every command.
	config settings.Config
	// running is the command being run (set before it runs), so a shared
	// error can suggest rerunning that command rather than another.
	running *cobra.Command
	// signerOnce opens the signer at most once per invocation (signer_setup.go).
	signerOnce signerOnce
	// seams are where tests reach into one invocation; zero in production.
	seams seams
	// output is --jq and --json-fields, prepared before the command runs.
	output *jsonout.Filter
	// selecting is --jq or --json-fields given: the error object goes to
	// stderr (errorOut).
	selecting bool
	// run is the deadline and phase of this invocation (deadline.go).
	run runState
	// moves are the directories once an old home's files moved (dirs.go).
	moves dirMoves
	// full prints npubs in full on a terminal too (repo --full); verbose
	// adds the tags a membership preview writes (repo --verbose).
	full, verbose bool
	// profiles asks the relays for the kind 0 profiles of the people a
	// read shows (the reads that name people set it); otherwise names
	// come from the cache alone.
	profiles bool
	// lookups are the NIP-05 names pubkey arguments were given as
	// (pubkey_args.go), for the preview.
	lookups []nip05Lookup
	// cacheWait bounds how long this invocation waits for the cache's
	// lock (0: cache.DefaultOpenTimeout); the pre-push guard shortens it.
	cacheWait time.Duration
	// abandoned is set when the pre-push guard's budget ran out: the
	// discovery it left behind opens no cache any more.
	abandoned atomic.Bool
}

// seams are the points a test may set on one invocation, so independent
// tests never share a package variable and can run in parallel.
type seams struct {
	// beforeRecheck runs between a membership preview and its recheck,
	// afterPublish between publishing and read-back.
	beforeRecheck, afterPublish func()
	// keyring replaces the OS keyring (signer.OSKeyring) when set.
	keyring signer.Keyring
	// cacheReadOnly opens the cache read-only (cache.Options.ReadOnly),
	// for tests on a machine where no write can be denied (root).
	cacheReadOnly bool
	// cacheMaxBytes caps the cache file (cache.Options.MaxBytes; 0 is the
	// default), so a test can fill it without writing 64 MiB.
	cacheMaxBytes int64
	// projectBeforeSign runs after a project change was checked against the
	// state it read and before it is signed: it lets a test line up two
	// changes against one revision.
	projectBeforeSign func(attempt int)
	// http replaces http.DefaultClient for NIP-05 lookups (a test's TLS
	// server).
	http *http.Client
}

// httpClient is the client of NIP-05 lookups.
func (a *app) httpClient() *http.Client {
	if a.seams.http != nil {
		return a.seams.http
	}
	return http.DefaultClient
}

// defaultRelays are --relay, else ROSTER_RELAYS, else config.yaml's
// (settings.Relays).
func (a *app) defaultRelays() []string { return settings.Relays(a.opts.Relays, a.io.Getenv, a.config) }
