package cmdutil

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/watch"
)

// WatchHelp is the --watch flag's help, the same on every command that has it.
const WatchHelp = "keep following: print the answer again (with --json, one document per line) each time it changes; Ctrl-C ends it (exit 0)"

// WatchTransport are the keys of a read's JSON that say how the read went,
// not what it found: they never make a watched answer "changed".
var WatchTransport = []string{"status", "reason", "complete"}

// WatchFlagErr refuses --watch where there is nothing to follow.
func (a *Factory) WatchFlagErr() error {
	if a.Opts.Offline {
		return UsageErr("--watch follows relays, and --offline asks none: drop one of them")
	}
	return nil
}

// RunWatch follows a read (watch.Run): the first answer is printed as the
// command prints it, then each answer that differs; human output under a
// line saying when it changed, JSON one document per line (through --jq
// and --json-fields). Relay drops and failed re-reads are said on stderr.
// An interrupt or --deadline ends it with a nil error (exit 0).
func (a *Factory) RunWatch(ctx context.Context, pool *relaypool.Pool, resolve func(context.Context, []*nostr.Event) (watch.Answer, error), jsonOf func(watch.Answer) any, human func(watch.Answer)) error {
	first := true
	return watch.Run(ctx, watch.Options{
		Resolve:   resolve,
		Subscribe: pool.Follow,
		Resolved:  a.Seams.WatchResolved,
		Warn: func(msg string) {
			// A re-read's error may run over several lines; its first says it.
			line, _, _ := strings.Cut(msg, "\n")
			fmt.Fprintf(a.Io.Err, "roster: watch: %s\n", termtext.Line(line))
		},
		Emit: func(ans watch.Answer) error {
			defer func() { first = false }()
			if a.Opts.JSON {
				return a.EmitJSON(jsonOf(ans), false)
			}
			if !first {
				fmt.Fprintf(a.Io.Out, "\n--- changed at %s ---\n\n", a.Io.Now().Format(time.TimeOnly))
			}
			human(ans)
			return nil
		},
	})
}
