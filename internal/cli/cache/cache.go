package cache

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"

	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
	"github.com/spf13/cobra"
)

// NewCacheCmd is `roster cache info|clear`: inspect or drop the local cache
// of verified events that backs --offline.
func NewCacheCmd(a *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cache",
		Short: "Inspect or clear roster's local cache of verified events",
		Long: `roster caches verified events, relay information and projections in
cache.db in --home, else $ROSTER_HOME, else $XDG_CACHE_HOME/roster
(~/.cache/roster). --offline answers from it alone. Clearing it is always
safe: everything in it can be fetched again from relays, and keys and
settings are kept elsewhere (roster help environment).`,
		Example: `  roster cache info            # where the cache is and what it holds
  roster cache info --json     # roster.cache-info/v2
  roster cache clear           # delete it; the next read fetches from relays again`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(NewCmdInfo(a, nil), NewCmdClear(a, nil))
	return cmd
}

// CacheInfoJSON is `roster cache info --json` (report.CacheInfo).
type CacheInfoJSON = report.CacheInfo

// Options are `roster cache info` or `clear`: only the shared flags.
type Options struct {
	Factory *cmdutil.Factory
}

// NewCmdInfo builds cache info; runF, when given, runs instead of the read
// with the parsed options (tests).
func NewCmdInfo(a *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	return cmdutil.AddFlags(&cobra.Command{
		Use:   "info",
		Short: "Show where the cache is and what it holds",
		Example: `  roster cache info
  roster cache info --json                 # roster.cache-info/v2
  roster cache info --home /tmp/roster     # another cache directory`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), &Options{Factory: a})
			}
			home, err := a.CacheDir()
			if err != nil {
				return cmdutil.UsageErr("%v", err)
			}
			path := cache.Path(home)
			out := CacheInfoJSON{Schema: "roster.cache-info/v2"}
			// Looking must not create: report a missing file as such.
			if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
				out.Info = cache.EmptyInfo(path)
				return printCacheInfo(a, out)
			}
			s, err := a.Store("")
			if err != nil {
				return cacheOpenErr(err)
			}
			defer s.Close()
			c := s.C
			info, err := c.Info()
			if err != nil {
				return cacheOpenErr(err)
			}
			out.Exists, out.Info, out.ReadOnly = true, info, c.ReadOnly()
			return printCacheInfo(a, out)
		},
	}, &a.Opts, cmdutil.OutputFlags|cmdutil.HomeFlag)
}

func printCacheInfo(a *cmdutil.Factory, out CacheInfoJSON) error {
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	w := a.Io.Out
	if !out.Exists {
		fmt.Fprintf(w, "cache: %s (not created yet)\n", out.Path)
		return nil
	}
	fmt.Fprintf(w, "cache:       %s\n", out.Path)
	if out.ReadOnly != nil {
		fmt.Fprintf(w, "read-only:   %v\n", out.ReadOnly)
	}
	fmt.Fprintf(w, "size:        %d bytes (cap %d)\n", out.SizeBytes, out.MaxSizeBytes)
	fmt.Fprintf(w, "schema:      %d\n", out.Info.Schema)
	fmt.Fprintf(w, "events:      %d\n", out.Events)
	kinds := make([]int, 0, len(out.Kinds))
	for k := range out.Kinds {
		n, _ := strconv.Atoi(k)
		kinds = append(kinds, n)
	}
	sort.Ints(kinds)
	for _, k := range kinds {
		fmt.Fprintf(w, "  kind %-6d %d\n", k, out.Kinds[strconv.Itoa(k)])
	}
	fmt.Fprintf(w, "addresses:   %d\n", out.Addresses)
	fmt.Fprintf(w, "deletions:   %d\n", out.Deletions)
	fmt.Fprintf(w, "projections: %d\n", out.Projections)
	fmt.Fprintf(w, "relays:      %d\n", len(out.Relays))
	for _, r := range out.Relays {
		// Relay URLs cached from announcements' relay hints: one line each.
		fmt.Fprintf(w, "  %s\n", termtext.Line(r))
	}
	fmt.Fprintf(w, "evicted:     %d (least recently read, to stay under the cap)\n", out.Evicted)
	fmt.Fprintf(w, "oversized:   %d skipped (events over %d bytes are not cached)\n", out.SkippedOversized, out.MaxEventBytes)
	return nil
}

// NewCmdClear builds cache clear; runF, when given, runs instead of the
// clearing with the parsed options (tests).
func NewCmdClear(a *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	return cmdutil.AddFlags(&cobra.Command{
		Use:   "clear",
		Short: "Delete the cache file (it is rebuilt from relays on the next read)",
		Example: `  roster cache clear
  roster cache clear --json   # roster.cache-clear/v1: {"path":..., "removed": true}`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), &Options{Factory: a})
			}
			home, err := a.CacheDir()
			if err != nil {
				return cmdutil.UsageErr("%v", err)
			}
			path := cache.Path(home)
			_, statErr := os.Stat(path)
			existed := statErr == nil
			if err := cache.Clear(home); err != nil {
				return &cmdutil.ExitError{Code: cmdutil.ExitFailure, Kind: "cache", Err: err}
			}
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, cacheClearJSON{Schema: "roster.cache-clear/v1", Path: path, Removed: existed})
			}
			if existed {
				fmt.Fprintf(a.Io.Out, "removed %s\n", path)
			} else {
				fmt.Fprintf(a.Io.Out, "no cache at %s; nothing to remove\n", path)
			}
			return nil
		},
	}, &a.Opts, cmdutil.OutputFlags|cmdutil.HomeFlag)
}

// cacheOpenErr turns a cache.Error into an exit error carrying the commands
// that get the user past it.
func cacheOpenErr(err error) error {
	var ce *cache.Error
	if errors.As(err, &ce) {
		return &cmdutil.ExitError{Code: cmdutil.ExitFailure, Kind: "cache-" + string(ce.Reason), Err: err, Commands: ce.Commands(),
			Details: map[string]any{"path": ce.Path}}
	}
	return err
}

// cacheClearJSON is `roster cache clear --json` (report.CacheClear).
type cacheClearJSON = report.CacheClear
