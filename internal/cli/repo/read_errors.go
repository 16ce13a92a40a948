package repo

import (
	"fmt"
	"strings"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// incompleteErr is exit 4 naming each relay that did not answer and why, or
// saying that the cache alone (--offline) cannot prove anything is latest.
// Its commands ask the same relays again (the renderer adds the user's
// --repo and --relay); only a different-relay suggestion names its own.
func incompleteErr(a *cmdutil.Factory, v *RepoView) *cmdutil.ExitError {
	repo := suggest.Roster("repo")
	// Retries rerun the read that failed (repo state, graph, history...).
	again, offline := repo, true
	if c := a.Running; c != nil && repoReads[c.CommandPath()] {
		again = suggest.Roster(strings.Fields(strings.TrimPrefix(c.CommandPath(), "roster "))...)
		// Health decides only on complete evidence, which the cache
		// alone never is: offline it fails the same way.
		offline = cmdutil.Reads(c, "offline") && c.CommandPath() != "roster repo health"
	}
	if v.Offline {
		return &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "incomplete",
			Err: fmt.Errorf("--offline answers from the local cache, which cannot prove that %s's events are still the latest; nothing was decided",
				render.DisplayCoord(v.Coordinate())),
			Details:  map[string]any{"relays": []map[string]any{}, "offline": true},
			Commands: []suggest.Command{suggest.Roster("repo", "health").Because("the same, without --offline")}}
	}
	// lines are raw for JSON; safe are the same lines for a terminal, each
	// relay's reason escaped to one line (exitError.Terminal).
	var lines, safe []string
	var hinted []suggest.Command
	rel := []map[string]any{}
	listed := map[string]discovery.LearnedRelay{}
	if v.Search != nil {
		for _, l := range v.Search.Learned {
			listed[l.URL] = l
		}
	}
	for _, r := range v.Fetch.Relays {
		entry := map[string]any{"url": r.URL, "status": r.Status, "reason": r.Reason, "events": r.Events}
		if l, ok := listed[r.URL]; ok {
			entry["listed_by"] = map[string]any{"npub": graph.Npub(l.Pubkey), "from": l.From}
		}
		rel = append(rel, entry)
		if r.Status != relaypool.StatusOK {
			line := cmdutil.RelayFailure(r.URL, r.Status, r.Reason)
			if l, ok := listed[r.URL]; ok {
				// A write asks the relays of everyone it involves (at most
				// discovery.MaxWriteRelays): say whose relay this is.
				line += fmt.Sprintf("; listed by %s, and a change asks the relays of everyone it involves (at most %d), so it cannot be decided without it: retry when it answers, or name the relays with --relay",
					learnedBy(l), discovery.MaxWriteRelays)
			}
			hint := ""
			if ws, ok := plainWebsocketInstead(r.URL, r.Reason); ok {
				hint = "\n    it speaks plain ws://, not wss:// (a relay hint without a scheme means wss://)"
				hinted = append(hinted, repo.With("--relay", ws).Because("the same relay over plain ws://"))
			}
			lines = append(lines, line+hint)
			safe = append(safe, termtext.Line(line)+hint)
		}
	}
	// A longer --timeout helps only a relay that timed out, not one that
	// refused the connection or closed the request.
	timedOut := false
	for _, r := range v.Fetch.Relays {
		timedOut = timedOut || r.Status == relaypool.StatusTimeout
	}
	what := "not every relay answered, so the evidence for %s is incomplete; nothing was decided:\n  %s"
	cmds := []suggest.Command{repo.Because("a read shows the partial answer and which relays failed")}
	if timedOut {
		cmds = append(cmds, suggest.Roster("repo", "health").With("--timeout", "30s").Because("give slow relays longer"))
	}
	if v.Answered() == 0 {
		what = "no relay answered, so nothing is known about %s:\n  %s"
		cmds = []suggest.Command{again.With("--relay", "wss://<a relay that answers>")}
		if timedOut {
			cmds = append(cmds, again.With("--timeout", "30s").Because("give slow relays longer"))
		}
		if offline {
			cmds = append(cmds, again.With("--offline").Because("what an earlier read cached"))
		}
	}
	cmds = append(hinted, cmds...)
	return &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "incomplete",
		Err:      fmt.Errorf(what, render.DisplayCoord(v.Coordinate()), strings.Join(lines, "\n  ")),
		Terminal: fmt.Sprintf(what, termtext.Line(render.DisplayCoord(v.Coordinate())), strings.Join(safe, "\n  ")),
		Details:  map[string]any{"relays": rel},
		Commands: cmds}
}

// repoReads are the reads an incomplete answer's retries rerun as they
// are (a write's retry is its own change: withMutationRetry).
var repoReads = map[string]bool{"roster repo": true, "roster repo state": true, "roster repo graph": true,
	"roster repo history": true, "roster repo health": true}

// plainWebsocketInstead recognizes a wss:// relay that answered TLS with
// plain HTTP: typically a local relay (roster dev relay) reached through a
// scheme-less relay hint, which NIP-34 URLs read as wss://. It returns the
// ws:// URL to use instead.
func plainWebsocketInstead(url, reason string) (string, bool) {
	if !strings.HasPrefix(url, "wss://") || !strings.Contains(reason, "server gave HTTP response to HTTPS client") {
		return "", false
	}
	return "ws://" + strings.TrimPrefix(url, "wss://"), true
}

// notFoundErr is exit 4 saying what was searched and what to try.
func notFoundErr(a *cmdutil.Factory, v *RepoView) *cmdutil.ExitError {
	c := v.Coordinate()
	where := "relays " + strings.Join(v.Relays, ", ")
	// The selection's relay hints stay: without them an offline miss's
	// "fetch it from relays" would have no relay to ask.
	here := suggest.Roster("repo", "--repo", gitstate.NostrURL(c, v.Selection.Relays))
	cmds := []suggest.Command{
		here.With("--relay", "wss://<a relay that has it>").Because("ask other relays"),
		suggest.Roster("repo", "--repo", "nostr://<npub>/<identifier>").Because("check the author and the identifier"),
	}
	if v.Offline {
		where = "the local cache (--offline)"
		cmds = []suggest.Command{here.Because("without --offline: fetch it from relays first")}
	} else if v.Fetch != nil && !v.Fetch.Complete {
		where += " (not all of them answered)"
		for _, r := range v.Fetch.Relays {
			if r.Status == relaypool.StatusTimeout {
				cmds = append([]suggest.Command{here.With("--timeout", "30s").Because("give the silent relays longer")}, cmds...)
				break
			}
		}
	}
	return (&cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "not-found",
		Err: fmt.Errorf("no repository announcement found for %s (kind %d, d=%q, author %s) in %s",
			render.DisplayCoord(c), graph.KindAnnouncement, c.Identifier, graph.Npub(c.Pubkey), where),
		Details:  map[string]any{"coordinate": c.ATag(), "searched": v.Relays, "offline": v.Offline},
		Commands: cmds}).OneLine()
}

// staleErr is exit 4: the relays answered with an older version of an
// announcement or state than this machine verified before, so a change
// built on their answer would drop the newer one.
func staleErr(a *cmdutil.Factory, e *discovery.Stale) *cmdutil.ExitError {
	var which []string
	ids := []string{}
	for _, n := range e.Newer {
		what := "announcement"
		if n.Kind == graph.KindState {
			what = "repository state"
		}
		which = append(which, fmt.Sprintf("%s of %s (event %s, created at %s)", what, graph.Npub(n.PubKey), n.ID, graph.HumanTime(int64(n.CreatedAt))))
		ids = append(ids, n.ID)
	}
	return &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "stale-relays",
		Err: fmt.Errorf("the relays answered with older versions than this machine already verified: %s; a relay may be serving a cached or lagging answer, and a change built on it would drop the newer version; nothing was decided",
			strings.Join(which, "; ")),
		Details:  map[string]any{"newer": ids},
		Commands: []suggest.Command{suggest.Roster("repo").Because("what the relays serve now; retry the change once they serve the newer version")}}
}
