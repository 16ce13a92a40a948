package settings

import (
	"fmt"
	"os"
	"path/filepath"
)

// Dirs are the directories roster keeps its files in. Clearing a cache
// must never delete a key, so the three are apart by default (the XDG Base
// Directory layout); --home or ROSTER_HOME puts all three in one place, for
// tests, CI and anyone who wants one directory.
type Dirs struct {
	// Config holds config.yaml.
	Config string
	// Data holds the account record and the encrypted key files.
	Data string
	// Cache holds cache.db, which roster can always fetch again.
	Cache string
	// Home is the one directory --home or ROSTER_HOME named ("" when the
	// XDG layout is used).
	Home string
	// Legacy is where roster kept everything before the XDG layout (the
	// cache directory: then the default home), or "" with a Home.
	Legacy string
}

// Locate finds the directories: flag (--home), else ROSTER_HOME, for all
// three; else $XDG_CONFIG_HOME/roster, $XDG_DATA_HOME/roster and
// $XDG_CACHE_HOME/roster, each variable defaulting to ~/.config,
// ~/.local/share and ~/.cache (a relative value is ignored, as the XDG
// specification says). A directory that exists but is not a directory is
// refused here, once, rather than surfacing as "not a directory" from
// whichever file a command opens first.
func Locate(flag string, getenv func(string) string) (Dirs, error) {
	d, err := locate(flag, getenv)
	if err != nil {
		return Dirs{}, err
	}
	for _, dir := range []string{d.Config, d.Data, d.Cache} {
		if st, err := os.Stat(dir); err == nil && !st.IsDir() {
			if d.Home != "" {
				return Dirs{}, fmt.Errorf("the roster home %s is a file, not a directory: pass --home <directory>, or point ROSTER_HOME at one", dir)
			}
			return Dirs{}, fmt.Errorf("roster's directory %s is a file, not a directory: move it away, or pass --home <directory>", dir)
		}
	}
	return d, nil
}

func locate(flag string, getenv func(string) string) (Dirs, error) {
	home := flag
	if home == "" {
		home = getenv("ROSTER_HOME")
	}
	if home != "" {
		return Dirs{Config: home, Data: home, Cache: home, Home: home}, nil
	}
	user := getenv("HOME")
	if user == "" {
		user = getenv("USERPROFILE") // Windows sets this, not HOME
	}
	base := func(variable, fallback string) (string, error) {
		if v := getenv(variable); filepath.IsAbs(v) {
			return filepath.Join(v, "roster"), nil
		}
		if user == "" {
			return "", fmt.Errorf("no home directory to keep roster's files in ($HOME and $%s are unset): set ROSTER_HOME or pass --home", variable)
		}
		return filepath.Join(user, fallback, "roster"), nil
	}
	var d Dirs
	var err error
	if d.Config, err = base("XDG_CONFIG_HOME", ".config"); err != nil {
		return Dirs{}, err
	}
	if d.Data, err = base("XDG_DATA_HOME", filepath.Join(".local", "share")); err != nil {
		return Dirs{}, err
	}
	if d.Cache, err = base("XDG_CACHE_HOME", ".cache"); err != nil {
		return Dirs{}, err
	}
	d.Legacy = d.Cache
	return d, nil
}
