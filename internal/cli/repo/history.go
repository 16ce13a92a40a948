package repo

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
	"github.com/spf13/cobra"
)

// HistoryOptions are `roster repo history` as its flags gave it: only the
// shared ones, in Factory.Opts.
type HistoryOptions struct {
	Factory *cmdutil.Factory
}

// NewCmdHistory is `roster repo history`: who held which role when, former
// maintainers included; runF, when given, runs instead of the read with the
// parsed options (tests).
func NewCmdHistory(a *cmdutil.Factory, runF func(context.Context, *HistoryOptions) error) *cobra.Command {
	o := &HistoryOptions{Factory: a}
	return &cobra.Command{
		Use:   "history",
		Short: "List each person's effective role intervals, former maintainers included",
		Long: `roster repo history lists, for every person a role record names, the
effective intervals of each role (lead, maintainer, moderator): from when,
until when, and how the end is known — signed by its author, taken from a
NIP-09 deletion, or only estimated (labelled so) — and whose record each
comes from. The record shown is chosen by history precedence: the selected
maintainer's own, else the nearest confirmed maintainer's, ties by the
lowest pubkey. Copies that disagree with it are listed under it.`,
		Example: `  roster repo history
  roster repo history --json
  roster repo history --repo nostr://npub1.../my-repo --relay wss://relay.example`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			v, err := LoadRepoWith(a, cmd.Context(), cmdutil.SourceOptions{Profiles: true}, PartialEvidence)
			if err != nil {
				return err
			}
			h := report.HistoryOf(v)
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, h)
			}
			renderHistory(a.Io.Out, h, render.People(a, h.Names, h.Viewer), render.TerminalWidth(a))
			return nil
		},
	}
}

// renderHistory prints one block per person: their current role, then
// each role's intervals with their source, then disagreeing copies.
func renderHistory(w io.Writer, h *report.History, pt render.PeopleText, width int) {
	p := &termui.Lines{W: w, Width: width}
	// Whose record it is: once for the whole history when one author
	// recorded every role (the usual case: the lead's), else once per
	// person, else once per role.
	var all []report.HistoryRole
	for _, person := range h.People {
		all = append(all, person.Roles...)
	}
	everyone := sharedSource(all)
	header := fmt.Sprintf("history of %s (selected: %s)", termtext.Line(h.Coordinate.Identifier), pt.Of(h.Coordinate.Npub))
	if everyone != "" {
		header += ", as " + pt.Of(everyone) + "'s record has it"
	}
	render.FitLine(w, width, 2, header)
	if len(h.People) == 0 {
		fmt.Fprintln(w, "no role records")
		return
	}
	for _, person := range h.People {
		fmt.Fprintln(w)
		// Whose record it is, once per person when one author recorded
		// every role, else once per role.
		shared := sharedSource(person.Roles)
		by := ""
		if everyone != "" {
			shared = everyone
		} else if shared != "" {
			by = "  (" + pt.Of(shared) + "'s record)"
		}
		fmt.Fprintf(w, "%s  now: %s%s\n", pt.Of(person.Npub), roleWord(person.Current), by)
		source := func(r report.HistoryRole) string {
			if shared != "" {
				return ""
			}
			return "  (" + pt.Of(r.Source) + "'s record)"
		}
		for _, r := range person.Roles {
			for i, iv := range r.Intervals {
				label := ""
				if i == 0 {
					label = "  " + r.Role
				}
				text := historyIntervalText(iv)
				if strings.HasPrefix(person.Current, "invited") && iv.End == graph.EndOpen && i == len(r.Intervals)-1 {
					// An invitation is not effective membership yet.
					text = strings.Replace(text, ", still current", ", invited: not yet accepted", 1)
				}
				if i == 0 {
					text += source(r)
				}
				p.Row(label, text)
			}
			if len(r.Intervals) == 0 {
				p.Row("  "+r.Role, "no interval"+source(r))
			}
			if r.Conflict {
				for _, c := range r.Copies {
					if !c.Chosen {
						p.Note("conflicting copy: " + pt.Of(c.Author) + "'s record says " + tagWords(c.Tag))
					}
				}
			}
		}
	}
}

// sharedSource is the one author whose record every role comes from, or
// "" when the roles come from several.
func sharedSource(roles []report.HistoryRole) string {
	if len(roles) == 0 {
		return ""
	}
	for _, r := range roles[1:] {
		if r.Source != roles[0].Source {
			return ""
		}
	}
	return roles[0].Source
}

// historyIntervalText is an interval in words, its end's evidence named.
// A record without a start (a creator's own M record) holds from the
// start of the repository's history.
func historyIntervalText(iv report.HistoryInterval) string {
	from := "from the start (the record gives no date)"
	if iv.From != nil {
		from = "from " + graph.HumanTime(*iv.From)
	}
	switch iv.End {
	case graph.EndOpen:
		return from + ", still current"
	case graph.EndDeferred:
		return from + ", end not recorded here (a history-only copy)"
	case graph.EndDeletion:
		return from + " until " + historyUntil(iv) + " (their announcement's deletion)"
	case graph.EndEstimated:
		return from + " until about " + historyUntil(iv) + " (an estimate, not signed evidence)"
	}
	return from + " until " + historyUntil(iv) + " (signed)"
}

func historyUntil(iv report.HistoryInterval) string {
	if iv.Until == nil {
		return "an unknown time"
	}
	return graph.HumanTime(*iv.Until)
}

// tagWords says what a role tag's boundaries are: alternately starts and
// ends, as dates ("defer" kept as the word).
func tagWords(tag []string) string {
	var parts []string
	for i := 2; i < len(tag); i++ {
		word := "from "
		if i%2 == 1 {
			word = "until "
		}
		parts = append(parts, word+TagTime(tag, i))
	}
	if len(parts) == 0 {
		return "no dates"
	}
	return strings.Join(parts, " ")
}
