package cmdutil

import (
	"errors"
	"fmt"

	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/termtext"
)

// SourceOptions are what one read asks of its discovery source.
type SourceOptions struct {
	// Profiles asks the relays for the kind 0 profiles of the people the
	// read shows (the reads that name people); otherwise names come from
	// the cache alone.
	Profiles bool
	// Progress is the progress line the read reports on (a write's one
	// line for all its phases); nil: the source starts its own.
	Progress ProgressLine
}

// RepoSource is the discovery source of relays with the user's cache,
// timeout and progress line; done erases a progress line it started.
func (a *Factory) RepoSource(relays []string, reach []string, o SourceOptions) (discovery.Source, func()) {
	progress, done := o.Progress, func() {}
	if progress == nil {
		p := termui.NewProgress(a.Io.Err, a.Io.progress() && !a.Opts.Offline && len(relays) > 0)
		progress, done = p, p.Done
	}
	return discovery.Source{
		Relays:    relays,
		Pinned:    len(a.Opts.Relays) > 0,
		Offline:   a.Opts.Offline,
		Pool:      func() *relaypool.Pool { return a.Pool(AuthLazy, progress.Update) },
		OpenCache: a.OpenCache,
		Warn:      func(msg string) { fmt.Fprintf(a.Io.Err, "roster: warning: %s\n", termtext.Line(msg)) },
		NextRound: progress.NextRound,
		Reach:     reach,
		People:    &discovery.People{Fetch: o.Profiles, HTTP: a.HttpClient(), Timeout: a.Opts.Timeout},
	}, done
}

// OpenCache opens the cache in the cache directory (Store without a
// warning), as discovery asks for it.
func (a *Factory) OpenCache() (*cache.Cache, error) {
	s, err := a.Store("")
	return s.C, err
}

// Store opens the cache in the cache directory as the pipelines' store:
// read-only when it cannot be written (cache.Open decides; the test seam
// forces it). It is the one way a command opens the cache; what a failure
// means is the caller's: warn, when not "", is said on stderr after the
// reason ("roster: warning: <reason>; <warn>"), and the error is returned
// either way. A cache directory roster cannot name is a usage error and
// never a warning (the commands that need the directories report it).
// Close the store when done.
func (a *Factory) Store(warn string) (CacheStore, error) {
	home, err := a.CacheDir()
	if err != nil {
		return CacheStore{}, &ExitError{Code: ExitUsage, Kind: "usage", Err: err}
	}
	c, err := a.openCacheIn(home)
	if err != nil {
		if warn != "" {
			fmt.Fprintf(a.Io.Err, "roster: warning: %v; %s\n", err, warn)
		}
		return CacheStore{}, err
	}
	return CacheStore{C: c, A: a}, nil
}

// openCacheIn opens the cache in dir, or, while another part of this
// invocation has it open (a workspace session naming people, a discovery
// reading profiles), holds that open file (cache.Cache.Hold): bbolt locks
// the file for its opener, so opening it a second time would wait for the
// invocation's own lock until the open timeout and then go on without the
// cache.
func (a *Factory) openCacheIn(dir string) (*cache.Cache, error) {
	if a.Abandoned.Load() {
		return nil, errors.New("the pre-push guard's budget ran out")
	}
	a.cacheMu.Lock()
	defer a.cacheMu.Unlock()
	if a.cacheOpen != nil && a.cacheDir == dir {
		if c, ok := a.cacheOpen.Hold(); ok {
			return c, nil
		}
	}
	wait := a.CacheWait
	if a.Seams.CacheWait > 0 {
		wait = a.Seams.CacheWait
	}
	c, err := cache.OpenWith(dir, cache.Options{ReadOnly: a.Seams.CacheReadOnly, MaxBytes: a.Seams.CacheMaxBytes, Timeout: wait})
	if err != nil {
		return nil, err
	}
	a.cacheOpen, a.cacheDir = c, dir
	return c, nil
}

// ViewerPubkey is whose announcement the advisory warnings are about: the
// ROSTER_SECRET_KEY or logged-in pubkey, found without unlocking anything
// (no passphrase prompt, no bunker round trip, no keyring lookup:
// signer.Viewer). Nobody signed in is "".
func (a *Factory) ViewerPubkey() string {
	env, err := a.SignerEnv(NewSecretReader(a))
	if err != nil {
		return ""
	}
	pk, err := signer.Viewer(env)
	if err != nil {
		return ""
	}
	return pk
}
