package cmdutil

import (
	"context"
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/termtext"
)

// RepoSource is the discovery source of relays with the user's cache,
// timeout and progress line; done erases a progress line it started.
func (a *Factory) RepoSource(relays []string, reach []string) (discovery.Source, func()) {
	progress, done := a.Run.Progress, func() {}
	if progress == nil {
		p := termui.NewProgress(a.Io.Err, a.Io.progress() && !a.Opts.Offline && len(relays) > 0)
		progress, done = p, p.Done
	}
	return discovery.Source{
		Relays:  relays,
		Pinned:  len(a.Opts.Relays) > 0,
		Offline: a.Opts.Offline,
		Pool: func() *relaypool.Pool {
			return relaypool.New(relaypool.Options{Timeout: a.Opts.Timeout, Auth: a.AuthSigner, Progress: progress.Update})
		},
		OpenCache: a.OpenCache,
		Warn:      func(msg string) { fmt.Fprintf(a.Io.Err, "roster: warning: %s\n", termtext.Line(msg)) },
		NextRound: progress.NextRound,
		Reach:     reach,
		People:    &discovery.People{Fetch: a.Profiles, HTTP: a.HttpClient(), Timeout: a.Opts.Timeout},
	}, done
}

// OpenCache opens the cache in the cache directory; a bad directory is a
// usage error.
func (a *Factory) OpenCache() (*cache.Cache, error) {
	home, err := a.CacheDir()
	if err != nil {
		return nil, &ExitError{Code: ExitUsage, Kind: "usage", Err: err}
	}
	return a.OpenCacheIn(home)
}

// OpenCacheIn opens the cache in dir: read-only when it cannot be written
// (cache.Open decides; the test seam forces it).
func (a *Factory) OpenCacheIn(dir string) (*cache.Cache, error) {
	if a.Abandoned.Load() {
		return nil, errors.New("the pre-push guard's budget ran out")
	}
	return cache.OpenWith(dir, cache.Options{ReadOnly: a.Seams.CacheReadOnly, MaxBytes: a.Seams.CacheMaxBytes, Timeout: a.CacheWait})
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

// AuthSigner answers a relay's NIP-42 challenge. The signer is opened only
// when a relay asks, so reads never prompt otherwise; without one the relay
// is reported as closed: auth-required.
func (a *Factory) AuthSigner(ctx context.Context, evt *nostr.Event) error {
	s, err := a.Signer(ctx)
	if err != nil {
		return err
	}
	return s.SignEvent(ctx, evt)
}
