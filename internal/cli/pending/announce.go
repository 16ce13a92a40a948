package pending

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/membership"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// resumeFirstAnnouncement finishes a `repo init` of a new repository that
// no relay holds yet: its recheck is init's own, every relay answers and
// none holds an announcement of the identifier by the author other than
// this one; only then, and inside the acceptance window, are the same
// signed bytes sent to every relay that lacks them, and the write is
// finished once every relay returns the event.
func resumeFirstAnnouncement(a *cmdutil.Factory, ctx context.Context, j *journal.Dir, w journal.Write) error {
	e := w.First()
	evt := e.Event
	relays := relaypool.NormalizeRelays(e.Relays)
	pool := a.Pool(cmdutil.AuthLazy)
	defer pool.Close()
	got := pool.Fetch(ctx, relays, nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{evt.PubKey}, Tags: nostr.TagMap{"d": []string{evt.Tags.GetD()}}})
	if !got.Complete {
		// A longer --timeout only when a relay timed out (cmdutil.RetryLater).
		var statuses []string
		for _, r := range got.Relays {
			statuses = append(statuses, r.Status)
		}
		return &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "incomplete",
			Err:      fmt.Errorf("cannot recheck the unfinished write %s, since not every relay answered; nothing was sent", track.Short(w.ID)),
			Commands: []suggest.Command{cmdutil.RetryLater(suggest.Roster("pending", "resume", track.Short(w.ID)), statuses...)}}
	}
	holding := map[string][]string{evt.ID: got.Sources[evt.ID]}
	for _, other := range got.Events {
		if other.ID != evt.ID {
			return &cmdutil.ExitError{Code: cmdutil.ExitRefused, Kind: membership.KindConcurrentChange,
				Err: fmt.Errorf("your announcement of %q changed after the unfinished write was signed (event %s); nothing was sent. Rerun the command to preview the current state: it orders after the partial write",
					evt.Tags.GetD(), other.ID),
				Details: map[string]any{"write": w.ID, "holding": holding, "changed": []string{other.ID}, "problems": []string{}},
				Commands: []suggest.Command{suggest.Roster(e.Command...).Because("run init again as it is now"),
					suggest.Roster("pending", "discard", track.Short(w.ID)).Because("then forget the unfinished write")}}
		}
	}
	if journal.Expired(evt, a.Io.Now()) {
		return &cmdutil.ExitError{Code: cmdutil.ExitRefused, Kind: membership.KindPendingExpired,
			Err:     fmt.Errorf("the event %s was signed more than %v ago, and relays refuse events that late; nothing was sent", evt.ID, journal.AcceptanceWindow),
			Details: map[string]any{"write": w.ID, "holding": holding, "changed": []string{}, "problems": []string{}},
			Commands: []suggest.Command{suggest.Roster(e.Command...).Because("run init again"),
				suggest.Roster("pending", "discard", track.Short(w.ID)).Because("then forget the unfinished write")}}
	}
	var missing []string
	for _, u := range relays {
		if !slices.Contains(holding[evt.ID], u) {
			missing = append(missing, u)
		}
	}
	kept := track.Kept(j, w.ID)
	d := pool.Deliver(ctx, missing, evt, relaypool.DeliverOptions{Answered: kept.Answered(0)})
	if problems := d.Problems(); d.Accepted == 0 || len(problems) > 0 {
		return &cmdutil.ExitError{Code: cmdutil.ExitUnverified, Kind: membership.KindUnverified,
			Err:      fmt.Errorf("sent the event %s again to %s, but not every relay accepted and returned it; the write stays unfinished: %s", evt.ID, strings.Join(missing, ", "), strings.Join(problems, "; ")),
			Details:  map[string]any{"write": w.ID, "holding": holding, "changed": []string{}, "problems": cmdutil.OrEmptySlice(problems)},
			Commands: track.Commands(w.ID)}
	}
	kept.End(true, true)
	out := report.PendingResume{Schema: report.PendingResumeSchema, Write: report.PendingWriteOf(w, holding, a.Io.Now()),
		Sent: map[string][]relaypool.Delivered{evt.ID: d.Relays}, Verified: true}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	fmt.Fprintln(a.Io.Out, termtext.Line(fmt.Sprintf("sent %s (kind %d) again to %s", evt.ID, evt.Kind, strings.Join(missing, ", "))))
	fmt.Fprintf(a.Io.Out, "verified: %s; the write %s is finished\n", e.Verify.What, track.Short(w.ID))
	return nil
}
