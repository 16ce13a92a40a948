package cmdutil

import (
	"errors"
	"fmt"

	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/suggest"
)

// CacheErr turns a cache failure into an exit error carrying the cache's
// own way out (clear it, wait for the lock, use another --home).
func CacheErr(prefix string, err error) *ExitError {
	ee := &ExitError{Code: ExitFailure, Kind: "cache", Err: fmt.Errorf("%s: %w", prefix, err),
		Commands: []suggest.Command{suggest.Roster("cache", "info")}}
	var ce *cache.Error
	if errors.As(err, &ce) {
		// The same codes as `roster cache info` (docs/cache.md), so a
		// script handles a bad cache one way whichever command met it.
		ee.Kind = "cache-" + string(ce.Reason)
		ee.Details = map[string]any{"path": ce.Path}
		ee.Commands = append(ce.Commands(), ee.Commands...)
	}
	return ee
}
