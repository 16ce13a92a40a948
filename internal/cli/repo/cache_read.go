package repo

import (
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// cacheErr turns a cache failure into an exit error (cmdutil.CacheErr).
func cacheErr(prefix string, err error) *cmdutil.ExitError { return cmdutil.CacheErr(prefix, err) }
