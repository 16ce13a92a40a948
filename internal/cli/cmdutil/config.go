package cmdutil

import (
	"errors"

	"github.com/roster-cli/roster/settings"
	"github.com/roster-cli/roster/suggest"
)

// LoadConfig reads config.yaml in the config directory (settings.Load); one that
// cannot be read or does not parse is a usage error naming the file and
// both ways out.
func LoadConfig(home string) (settings.Config, error) {
	cfg, err := settings.Load(home)
	var ce *settings.ConfigError
	if !errors.As(err, &ce) {
		return cfg, err
	}
	ee := &ExitError{Code: ExitUsage, Kind: "config", Err: ce}
	if !ce.Unreadable {
		ee.Commands = []suggest.Command{
			{Argv: []string{"edit", ce.Path}, Comment: "the one key is relays, e.g.  relays: [wss://relay.example]", Pinned: true},
			{Argv: []string{"mv", ce.Path, ce.Path + ".bak"}, Comment: "or start without it", Pinned: true}}
	}
	return cfg, ee
}
