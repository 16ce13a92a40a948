package repo

import (
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

// newRepoHistoryCmd is `roster repo history`: who held which role when,
// former maintainers included.
func newRepoHistoryCmd(a *cmdutil.Factory) *cobra.Command {
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
			a.Profiles = true
			v, err := LoadRepo(a, cmd.Context(), PartialEvidence)
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
	fmt.Fprintf(w, "history of %s (selected: %s)\n", termtext.Line(h.Coordinate.Identifier), pt.Of(h.Coordinate.Npub))
	if len(h.People) == 0 {
		fmt.Fprintln(w, "no role records")
		return
	}
	for _, person := range h.People {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "%s  now: %s\n", pt.Of(person.Npub), roleWord(person.Current))
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
				p.Row(label, text+"  ("+pt.Of(r.Source)+"'s record)")
			}
			if len(r.Intervals) == 0 {
				p.Row("  "+r.Role, "no interval ("+pt.Of(r.Source)+"'s record)")
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

// historyIntervalText is an interval in words, its end's evidence named.
func historyIntervalText(iv report.HistoryInterval) string {
	from := "from an unknown time"
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
