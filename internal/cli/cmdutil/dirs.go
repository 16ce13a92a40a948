package cmdutil

import (
	"fmt"
	"strings"
	"sync"

	"github.com/roster-cli/roster/settings"
	"github.com/roster-cli/roster/signer"
)

// dirMoves remembers, for one invocation, which directory to use after each
// move out of the old home that was tried, so it is tried, and said, once.
// It is keyed by what moves and where to, rather than done once, because
// completion parses --home after the root's pre-run has looked.
type dirMoves struct {
	mu   sync.Mutex
	used map[string]string
}

func (m *dirMoves) once(key string, move func() string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if d, ok := m.used[key]; ok {
		return d
	}
	if m.used == nil {
		m.used = map[string]string{}
	}
	m.used[key] = move()
	return m.used[key]
}

// dirs are roster's directories (settings.Locate).
func (a *Factory) dirs() (settings.Dirs, error) { return settings.Locate(a.Opts.Home, a.Io.Getenv) }

// CacheDir is where cache.db lives.
func (a *Factory) CacheDir() (string, error) {
	d, err := a.dirs()
	return d.Cache, err
}

// ConfigDir is where config.yaml is read from, after moving one found in
// the old home.
func (a *Factory) ConfigDir() (string, error) {
	d, err := a.dirs()
	if err != nil {
		return "", err
	}
	return a.moves.once("settings\x00"+d.Config, func() string { return a.moveOld(d.Legacy, d.Config, []string{settings.ConfigFile}, "settings") }), nil
}

// DataDir is where the account record and key files are, after moving the
// ones found in the old home.
func (a *Factory) DataDir() (string, error) {
	d, err := a.dirs()
	if err != nil {
		return "", err
	}
	return a.moves.once("login\x00"+d.Data, func() string { return a.moveOld(d.Legacy, d.Data, signer.Files, "login") }), nil
}

// moveOld moves names out of the old home (settings.MoveFiles) and returns
// the directory to use: the new one, or the old one when the move failed,
// so a key is never unreadable. Each outcome is said once on stderr; the
// move itself happens once, because afterwards the old home holds nothing.
func (a *Factory) moveOld(from, to string, names []string, what string) string {
	if from == "" || from == to {
		return to
	}
	m, err := settings.MoveFiles(from, to, names)
	if err != nil {
		fmt.Fprintf(a.Io.Err, "roster: %v; roster will try again next time (or pass --home %s to keep everything there)\n", err, from)
		return from
	}
	if len(m.Moved) > 0 {
		fmt.Fprintf(a.Io.Err, "roster: moved your %s files (%s) from %s to %s: the cache directory now holds only the cache\n",
			what, strings.Join(m.Moved, ", "), from, to)
	}
	for _, n := range names {
		if e, ok := m.Leftover[n]; ok {
			fmt.Fprintf(a.Io.Err, "roster: copied %s to %s but could not remove the old copy (%v); roster removes it next time\n", n, to, e)
		}
	}
	if len(m.Kept) > 0 {
		fmt.Fprintf(a.Io.Err, "roster: did not move %s from %s: %s already holds other %s files, which roster uses; move or delete the old ones yourself\n",
			strings.Join(m.Kept, ", "), from, to, what)
	}
	return to
}
