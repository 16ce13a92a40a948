package cmdutil

import (
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/internal/jsonout"
	"github.com/roster-cli/roster/settings"
	"github.com/roster-cli/roster/signer"
	"github.com/spf13/cobra"
)

// globalOptions are the values of the flags several commands share, bound
// by the helpers of flags.go on the commands that read them
// (docs/architecture.md "The Factory and the flag helpers").
type globalOptions struct {
	Relays []string
	Repo   string
	// RepoFrom names what gave Repo when it was not --repo itself: the
	// environment variable ROSTER_REPO (repo_env.go); "" is the flag. The
	// selection carries it (gitstate.Selection.Via) into the target line.
	RepoFrom string
	JSON     bool
	Offline  bool
	Timeout  time.Duration
	Home     string
	// JQ and JSONFields select from the JSON output (json_output.go).
	JQ         string
	JSONFields []string
	// Deadline caps the whole command's wall time (deadline.go); 0: none.
	Deadline time.Duration
	// Debug logs the relay requests and answers to stderr (pool.go).
	Debug bool
}

// Factory is the state one invocation of roster shares across its commands:
// the streams, the settings, and the signer, cache and relays, opened on use.
type Factory struct {
	Io   *IoStreams    `json:"-"`
	Opts globalOptions `json:"-"`
	// Config is config.yaml in the config directory, loaded before every command.
	Config settings.Config `json:"-"`
	// Running is the command being run (set before it runs), so a shared
	// error can suggest rerunning that command rather than another.
	Running *cobra.Command `json:"-"`
	// signerOnce opens the signer at most once per invocation (signer_setup.go).
	signerOnce signerOnce
	// Seams are where tests reach into one invocation; zero in production.
	Seams Seams `json:"-"`
	// output is --jq and --json-fields, prepared before the command runs.
	output *jsonout.Filter
	// Selecting is --jq or --json-fields given: the error object goes to
	// stderr (errorOut).
	Selecting bool `json:"-"`
	// Run is the deadline and phase of this invocation (deadline.go).
	Run runState `json:"-"`
	// moves are the directories once an old home's files moved (dirs.go).
	moves dirMoves
	// Full prints npubs in full on a terminal too (repo --full); Verbose
	// adds the full evidence to a write's preview (the --verbose of the
	// writes that take it, render.AddVerboseFlag).
	Full, Verbose bool `json:"-"`
	// CacheWait bounds how long this invocation waits for the cache's
	// lock (0: cache.DefaultOpenTimeout); the pre-push guard shortens it.
	CacheWait time.Duration `json:"-"`
	// SharedRepo is the selected repository as other people name it (a
	// nostr:// URL with its relay hints), set once a repo command selected
	// one: the --repo of the commands it suggests to someone else.
	SharedRepo string `json:"-"`
	// Abandoned is set when the pre-push guard's budget ran out: the
	// discovery it left behind opens no cache any more.
	Abandoned atomic.Bool `json:"-"`
	// cacheOpen is the cache file this invocation opened last (in
	// cacheDir), held again by later opens while it is open (source.go).
	cacheMu   sync.Mutex
	cacheOpen *cache.Cache
	cacheDir  string
}

// Seams are the points a test may set on one invocation, so independent
// tests never share a package variable and can run in parallel.
type Seams struct {
	// BeforeRecheck runs between a membership preview and its recheck,
	// afterPublish between publishing and read-back.
	BeforeRecheck, AfterPublish func() `json:"-"`
	// Keyring replaces the OS keyring (signer.OSKeyring) when set.
	Keyring signer.Keyring `json:"-"`
	// CacheReadOnly opens the cache read-only (cache.Options.ReadOnly),
	// for tests on a machine where no write can be denied (root).
	CacheReadOnly bool `json:"-"`
	// CacheMaxBytes caps the cache file (cache.Options.MaxBytes; 0 is the
	// default), so a test can fill it without writing 64 MiB.
	CacheMaxBytes int64 `json:"-"`
	// ProjectBeforeSign runs after a project change was checked against the
	// state it read and before it is signed: it lets a test line up two
	// changes against one revision.
	ProjectBeforeSign func(attempt int) `json:"-"`
	// Http replaces http.DefaultClient for NIP-05 lookups (a test's TLS
	// server).
	Http *http.Client `json:"-"`
	// ScryptLogN is the NIP-49 cost of the ncryptsec files this invocation
	// writes (signer.Env.ScryptLogN; 0: signer.DefaultScryptLogN), so the
	// tests that log in do not each pay 64 MiB scrypt rounds.
	ScryptLogN uint8 `json:"-"`
	// CacheWait replaces the cache lock's open timeout (Factory.CacheWait),
	// so a test can tell waiting for a lock from not waiting at all.
	CacheWait time.Duration `json:"-"`
	// WatchResolved is called after each resolution of a --watch read,
	// with whether it was printed and how many live events it was handed
	// (watch.Options.Resolved).
	WatchResolved func(printed bool, live int) `json:"-"`
}

// HttpClient is the client of NIP-05 lookups.
func (a *Factory) HttpClient() *http.Client {
	if a.Seams.Http != nil {
		return a.Seams.Http
	}
	return http.DefaultClient
}

// DefaultRelays are --relay, else ROSTER_RELAYS, else config.yaml's
// (settings.Relays).
func (a *Factory) DefaultRelays() []string {
	return settings.Relays(a.Opts.Relays, a.Io.Getenv, a.Config)
}
