package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"gopkg.in/yaml.v3"

	"github.com/roster-cli/roster/suggest"
)

// configFile is the name of roster's settings file inside the roster home.
const configFile = "config.yaml"

// rosterConfig is what a user sets once in $ROSTER_HOME/config.yaml. It holds
// defaults only, never secrets.
type rosterConfig struct {
	// Relays are asked when neither --relay nor ROSTER_RELAYS is given.
	Relays []string `yaml:"relays"`
}

// loadConfig reads <home>/config.yaml. A missing or empty file is an empty
// config; one that does not parse (or has unknown keys) is a usage error
// naming the file, so a typo never silently drops the user's relays.
func loadConfig(home string) (rosterConfig, error) {
	var cfg rosterConfig
	path := filepath.Join(home, configFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		// No file, or a home that is not a directory: the command that
		// needs the home explains the latter.
		return cfg, nil
	}
	if err != nil {
		return cfg, &exitError{Code: exitUsage, Kind: "config", Err: fmt.Errorf("read %s: %w", path, err)}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return rosterConfig{}, &exitError{Code: exitUsage, Kind: "config",
			Err: fmt.Errorf("%s is not valid roster configuration: %v", path, err),
			Commands: []suggest.Command{
				{Argv: []string{"edit", path}, Comment: "the one key is relays, e.g.  relays: [wss://relay.example]", Pinned: true},
				{Argv: []string{"mv", path, path + ".bak"}, Comment: "or start without it", Pinned: true}}}
	}
	return cfg, nil
}
