package render

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// NoticeUnfinished says on stderr, before a write signs anything, which
// unfinished writes of the journal touch the same repository, the relays
// known to hold their events, and how to resume or discard them.
func NoticeUnfinished(a *cmdutil.Factory, us []journal.Unfinished) {
	NoticeUnfinishedOf(a, "repository", us)
}

// NoticeUnfinishedOf is NoticeUnfinished for a write of what ("workspace",
// "project").
func NoticeUnfinishedOf(a *cmdutil.Factory, what string, us []journal.Unfinished) {
	for _, u := range us {
		first := u.Write.First()
		fmt.Fprintf(a.Io.Err, "roster: an earlier write of this %s did not finish: %s (%s), signed %s\n", what,
			termtext.Line(quoteWords(append([]string{"roster"}, first.Command...))), u.Write.ID[:12], first.Signed.UTC().Format("2006-01-02 15:04:05 UTC"))
		for _, e := range u.Write.Entries {
			line := fmt.Sprintf("  event %s (kind %d)", e.Event.ID, e.Event.Kind)
			if h := u.Holding[e.Event.ID]; len(h) > 0 {
				line += " held by " + strings.Join(h, ", ")
			} else {
				line += " held by no relay known"
			}
			fmt.Fprintln(a.Io.Err, termtext.Line(line))
		}
		for _, c := range Render(a, track.Commands(u.Write.ID)) {
			fmt.Fprintf(a.Io.Err, "  run: %s\n", termtext.Line(c))
		}
	}
}

// WithJournal names a write's unfinished entry in its error: details.journal
// and the resume and discard commands, once each.
func WithJournal(err error, write string) error {
	var ee *cmdutil.ExitError
	if write == "" || !errors.As(err, &ee) {
		return err
	}
	if ee.Details == nil {
		ee.Details = map[string]any{}
	}
	ee.Details["journal"] = write
	for _, c := range track.Commands(write) {
		if !slices.ContainsFunc(ee.Commands, func(x suggest.Command) bool { return slices.Equal(x.Words(), c.Words()) }) {
			ee.Commands = append(ee.Commands, c)
		}
	}
	return err
}

// quoteWords is a command's words as a shell takes them.
func quoteWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = suggest.Quote(w)
	}
	return strings.Join(q, " ")
}
