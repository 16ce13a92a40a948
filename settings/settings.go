// Package settings decides where roster keeps its files and which relays it
// asks by default: the directories (dirs.go: --home or ROSTER_HOME for all
// of them, else the XDG config, data and cache directories, and the one move
// out of the old single home, move.go) and the default relays (--relay,
// ROSTER_RELAYS, the relays of config.yaml in the config directory). The
// environment is passed in as a lookup.
package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/roster-cli/roster/internal/flatyaml"
	"github.com/roster-cli/roster/internal/relayurl"
)

// ConfigFile is the name of roster's settings file in the config directory.
const ConfigFile = "config.yaml"

// Config is what a user sets once in <config dir>/config.yaml. It holds
// defaults only, never secrets.
type Config struct {
	// Relays are asked when neither --relay nor ROSTER_RELAYS is given.
	Relays []string
}

// ConfigError is a config.yaml that could not be read or does not parse
// (or has unknown keys): a typo must never silently drop the user's relays.
type ConfigError struct {
	Path string
	// Unreadable is true when the file exists but cannot be read (else it
	// does not parse).
	Unreadable bool
	Err        error
}

func (e *ConfigError) Error() string {
	if e.Unreadable {
		return fmt.Sprintf("read %s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("%s is not valid roster configuration: %v", e.Path, e.Err)
}

func (e *ConfigError) Unwrap() error { return e.Err }

// Load reads <dir>/config.yaml. A missing or empty file is an empty config,
// as is a dir that is not a directory (the command that needs it explains
// that).
func Load(dir string) (Config, error) {
	var cfg Config
	path := filepath.Join(dir, ConfigFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return cfg, nil
	}
	if err != nil {
		return cfg, &ConfigError{Path: path, Unreadable: true, Err: err}
	}
	doc, err := flatyaml.Parse(data)
	if err == nil {
		err = doc.Unknown("relays")
	}
	if err == nil {
		cfg.Relays, err = doc.Strings("relays")
	}
	if err != nil {
		return Config{}, &ConfigError{Path: path, Err: err}
	}
	return cfg, nil
}

// Relays are the relays to ask by default: flags (--relay) if given, else
// ROSTER_RELAYS split on commas, else the config's.
func Relays(flags []string, getenv func(string) string, cfg Config) []string {
	if len(flags) > 0 {
		return flags
	}
	var out []string
	for _, r := range strings.Split(getenv("ROSTER_RELAYS"), ",") {
		if r = strings.TrimSpace(r); r != "" {
			out = append(out, r)
		}
	}
	if len(out) > 0 {
		return out
	}
	return cfg.Relays
}

// CheckRelay refuses a relay value roster would mangle or cannot dial: it
// must be a ws:// or wss:// URL with a host, or a shorthand host[:port][/path]
// (a host without a scheme is wss://, a loopback one ws://, as NIP-34 relay
// hints are read).
func CheckRelay(s string) error {
	if _, err := relayurl.Parse(s, relayurl.Shorthand); err != nil {
		if strings.TrimSpace(s) == "" {
			return fmt.Errorf("an empty relay URL")
		}
		return fmt.Errorf("%q is not a relay URL: %w", s, err)
	}
	return nil
}

// CheckRelays checks every relay of a setting; where names the setting
// ("--relay", "ROSTER_RELAYS", the config file). A setting that is given but
// names no relay at all is refused too.
func CheckRelays(where string, values []string) error {
	named := 0
	for _, v := range values {
		if strings.TrimSpace(v) == "" {
			continue
		}
		named++
		if err := CheckRelay(v); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	if named == 0 && len(values) > 0 {
		return fmt.Errorf("%s is set but names no relay", where)
	}
	return nil
}
