// The journal of unfinished writes, as the group commands use it: the
// command a rerun runs, and the notice of an unfinished write of the same
// group before anything is signed.

package group

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/groups"
)

// intentFlags are the flags that say what a group write does: a rerun of
// the write carries them (the selectors come from the command that prints
// it).
var intentFlags = map[string]bool{"name": true, "about": true, "picture": true, "banner": true, "private": true, "closed": true,
	"restricted": true, "hidden": true, "parent": true, "role": true, "code": true, "reason": true, "yes": true, "save": true, "from": true}

// commandWords is the write as words after "roster": the noun and verb,
// the group (as <relay>'<id>, so the rerun asks the relay that hosts it),
// the other arguments and the intent flags given.
func commandWords(cmd *cobra.Command, verb, group string, args ...string) []string {
	words := append([]string{"group", verb, group}, args...)
	if cmd == nil {
		return words
	}
	return append(words, cmdutil.Typed{Keep: func(name string) bool { return intentFlags[name] }}.Flags(cmd)...)
}

// noticeUnfinished says on stderr, before a group write signs anything,
// which unfinished writes of the journal concern the same group, the
// relays known to hold their events, and how to resume or discard them. A
// journal that cannot be read stops the write (journal-unreadable, exit
// 1); a preview (dryRun) only says so. Without a data directory there is
// no journal to read: the write stops when it would keep its events.
func noticeUnfinished(a *cmdutil.Factory, relays []string, id string, dryRun bool) error {
	us, err := groups.Unfinished(a.Journal(), relays, id)
	var ue *journal.UnreadableError
	if errors.As(err, &ue) && ue.Root == "" {
		err = nil
	}
	if err != nil && !dryRun {
		return &cmdutil.ExitError{Code: cmdutil.ExitFailure, Kind: track.CodeUnreadable, Err: err,
			Commands: []suggest.Command{suggest.Roster("pending").Because("list the unfinished writes and the unreadable files")}}
	}
	if err != nil {
		fmt.Fprintf(a.Io.Err, "roster: %s\n", termtext.Line(err.Error()))
	}
	for _, u := range us {
		first := u.Write.First()
		words := make([]string, 0, len(first.Command)+1)
		for _, w := range append([]string{"roster"}, first.Command...) {
			words = append(words, suggest.Quote(w))
		}
		fmt.Fprintf(a.Io.Err, "roster: an earlier write of this group did not finish: %s (%s), signed %s\n",
			termtext.Line(strings.Join(words, " ")), u.Write.ID[:12], first.Signed.UTC().Format("2006-01-02 15:04:05 UTC"))
		for _, e := range u.Write.Entries {
			line := fmt.Sprintf("  event %s (kind %d)", e.Event.ID, e.Event.Kind)
			if h := u.Holding[e.Event.ID]; len(h) > 0 {
				line += " acknowledged by " + strings.Join(h, ", ")
			} else {
				line += " acknowledged by no relay"
			}
			fmt.Fprintln(a.Io.Err, termtext.Line(line))
		}
		for _, c := range render.Render(a, groups.PendingCommands(u.Write.ID)) {
			fmt.Fprintf(a.Io.Err, "  run: %s\n", termtext.Line(c))
		}
	}
	return nil
}
