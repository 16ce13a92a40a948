package repo

import (
	"fmt"
	"slices"
	"strings"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// PrintAdvisories writes graph's advisory warnings for v to stderr (human
// output only: with --json the same facts are structured data), except
// those whose closing command the "next:" section already gives: after a
// handover the lead-pointer advisory would repeat `roster repo follow-lead`
// right below the guidance that says it.
func PrintAdvisories(a *cmdutil.Factory, v *RepoView, given ...suggest.Command) {
	if a.Opts.JSON {
		return
	}
	pt := ViewPeople(a, v)
	var kept []suggest.Block
	for _, b := range graph.Advisories(v.Resolution, v.Viewer) {
		if !repeats(b, given) {
			kept = append(kept, b)
		}
	}
	for i, g := range FoldByCommand(kept) {
		if i > 0 {
			fmt.Fprintln(a.Io.Err)
		}
		// An advisory spans lines of graph's own; the coordinates and
		// commands in it may carry an announcement's identifier.
		text := pt.ProseBlock(g.head, render.Selectors(a))
		if len(g.Also) > 0 {
			text += "\nthe same command also takes care of this:"
			for _, b := range g.Also {
				for _, l := range strings.Split(Statement(b), "\n") {
					text += "\n  " + pt.Prose(l)
				}
			}
		}
		// "roster: " first, as every other line roster writes to stderr:
		// in a Git hook an advisory that began "error:" would read as Git's.
		fmt.Fprintln(a.Io.Err, "roster: "+termtext.Block(text))
	}
}

// advisoryGroup is an advisory and the later ones that end in a command it
// already gives: each command is printed once per run.
type advisoryGroup struct {
	head suggest.Block
	Also []suggest.Block `json:"-"`
}

// FoldByCommand folds each advisory whose one command is a command of an
// earlier advisory into that one, in first-seen order (several warnings
// closed by roster repo follow-lead print it once).
func FoldByCommand(bs []suggest.Block) []advisoryGroup {
	var out []advisoryGroup
next:
	for _, b := range bs {
		if c := b.Closing(); c != nil && len(commandsOf(b)) == 1 {
			for i := range out {
				if slices.ContainsFunc(commandsOf(out[i].head), c.Equal) {
					out[i].Also = append(out[i].Also, b)
					continue next
				}
			}
		}
		out = append(out, advisoryGroup{head: b})
	}
	return out
}

func commandsOf(b suggest.Block) []suggest.Command {
	var out []suggest.Command
	for _, p := range b {
		if p.Command != nil {
			out = append(out, *p.Command)
		}
	}
	return out
}

// Statement is a folded advisory's prose without its command: the text
// before it, the lead-in ("... with:") ending in what it is for.
func Statement(b suggest.Block) string {
	var s strings.Builder
	for _, p := range b {
		if p.Command == nil {
			s.WriteString(p.Text)
		}
	}
	text := strings.TrimRight(s.String(), " \n")
	for _, suffix := range []string{" with:", " by running:", " run:", ":"} {
		if t, ok := strings.CutSuffix(text, suffix); ok {
			return t
		}
	}
	return text
}

// ViewPeople names the people of v in human output.
func ViewPeople(a *cmdutil.Factory, v *RepoView) render.PeopleText {
	if v == nil {
		return render.People(a, nil, "")
	}
	return render.People(a, report.NamesOf(v.Profiles), ViewerNpub(v))
}

// repeats reports whether the block ends with a command the guidance gives
// (perhaps with more flags).
func repeats(b suggest.Block, given []suggest.Command) bool {
	c := b.Closing()
	if c == nil {
		return false
	}
	for _, g := range given {
		if g.Extends(*c) {
			return true
		}
	}
	return false
}

// pendingCommands are the commands of roster repo's pending rows that
// say nothing but that row's acknowledgement: the lead's
// --acknowledge-maintainer-change <npub>. (A co-maintainer's pending row
// says follow-lead, which other advisories give for other reasons; those
// stay.)
func pendingCommands(v *RepoView) []suggest.Command {
	var out []suggest.Command
	for _, p := range v.Resolution.PendingAcknowledgements {
		if slices.Contains(p.Command.Argv, "--acknowledge-maintainer-change") {
			out = append(out, p.Command)
		}
	}
	return out
}

// commandLines are the commands as report prints them (Command.String).
func commandLines(cmds []suggest.Command) map[string]bool {
	out := map[string]bool{}
	for _, c := range cmds {
		out[c.String()] = true
	}
	return out
}
