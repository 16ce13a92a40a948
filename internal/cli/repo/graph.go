package repo

import (
	"context"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
	"github.com/spf13/cobra"
)

// GraphOptions are `roster repo graph` as its flags gave it.
type GraphOptions struct {
	Factory *cmdutil.Factory
	History bool   // --history: also the defer copies and ended records
	Format  string // tree, dot or mermaid
}

// NewCmdGraph is `roster repo graph`: who lists whom, as a tree on the
// terminal or as a diagram's source; runF, when given, runs instead of the
// read with the parsed options (tests).
func NewCmdGraph(a *cmdutil.Factory, runF func(context.Context, *GraphOptions) error) *cobra.Command {
	o := &GraphOptions{Factory: a}
	cmd := &cobra.Command{
		Use:   "graph",
		Short: "Draw who lists whom: the lead path, maintainers, invitations and moderators",
		Long: `roster repo graph draws the maintainer graph from the selected coordinate:
each announcement's role records as edges (M names a lead, m lists a
maintainer, o a moderator), each person with the role the resolution gives
them. The tree starts at the selected maintainer and follows every active
listing to the listed person's own announcement; a person met again is
not expanded twice. --history adds the history-only (defer) copies and the
ended records, so people who left are visible.

--format dot prints Graphviz source (roster repo graph --format dot | dot
-Tsvg > graph.svg), --format mermaid a Mermaid flowchart; both have the
same nodes and edges as --json (roster.repo-graph/v1).`,
		Example: `  roster repo graph
  roster repo graph --history
  roster repo graph --format dot | dot -Tsvg > graph.svg
  roster repo graph --format mermaid
  roster repo graph --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch o.Format {
			case "tree", "dot", "mermaid":
			default:
				return cmdutil.UsageErr("--format %q: want tree, dot or mermaid", o.Format)
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			v, err := LoadRepoWith(a, cmd.Context(), cmdutil.SourceOptions{Profiles: true}, PartialEvidence)
			if err != nil {
				return err
			}
			g := report.GraphOf(v, o.History)
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, g)
			}
			pt := render.People(a, g.Names, g.Viewer)
			switch o.Format {
			case "dot":
				renderGraphDOT(a.Io.Out, g, render.NewPeopleText(g.Names, "", true))
			case "mermaid":
				renderGraphMermaid(a.Io.Out, g, render.NewPeopleText(g.Names, "", true))
			default:
				renderGraphTree(a.Io.Out, g, pt, render.TerminalWidth(a))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&o.History, "history", false, "also draw history-only (defer) copies and ended records")
	cmd.Flags().StringVar(&o.Format, "format", "tree", "tree, dot (Graphviz) or mermaid")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"tree", "dot", "mermaid"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// letterWords says what a role record does.
var letterWords = map[string]string{"M": "names as lead", "m": "lists as maintainer", "o": "lists as moderator"}

// renderGraphTree prints the tree: the selected maintainer at the root,
// each announcement's records as children, a person's own records
// expanded only the first time they are met.
func renderGraphTree(w io.Writer, g *report.Graph, pt render.PeopleText, width int) {
	nodes := map[string]report.GraphNode{}
	for _, n := range g.Nodes {
		nodes[n.Npub] = n
	}
	out := map[string][]report.GraphEdge{}
	for _, e := range g.Edges {
		out[e.From] = append(out[e.From], e)
	}
	fmt.Fprintf(w, "%s  (selected coordinate)\n", termtext.Line(g.Coordinate.Identifier))
	lead := "none (" + LeadSourceText(g.LeadSource) + ")"
	if g.LeadMaintainer != nil {
		lead = pt.Of(*g.LeadMaintainer) + " (" + LeadSourceText(g.LeadSource) + ")"
	}
	fmt.Fprintf(w, "lead: %s\n", lead)
	if len(g.LeadPath) > 1 {
		fmt.Fprintf(w, "lead path: %s\n", pt.List(g.LeadPath, " -> "))
	}
	fmt.Fprintln(w, "M names a lead, m lists a maintainer, o lists a moderator")
	fmt.Fprintln(w)
	// Each person is expanded under the first edge a breadth-first walk
	// from the root meets them by, so the root's own listings come first.
	home := map[string]int{} // npub -> index in g.Edges where it is expanded
	queue := []string{g.Coordinate.Npub}
	reached := map[string]bool{g.Coordinate.Npub: true}
	for i := 0; i < len(queue); i++ {
		for j, e := range g.Edges {
			if e.From == queue[i] && !reached[e.To] {
				reached[e.To] = true
				home[e.To] = j
				queue = append(queue, e.To)
			}
		}
	}
	expanded := map[string]bool{}
	edgeIndex := map[string][]int{}
	for i, e := range g.Edges {
		edgeIndex[e.From] = append(edgeIndex[e.From], i)
	}
	var walk func(npub, prefix string)
	walk = func(npub, prefix string) {
		expanded[npub] = true
		edges := out[npub]
		for i, e := range edges {
			branch, next := "├─ ", "│  "
			if i == len(edges)-1 {
				branch, next = "└─ ", "   "
			}
			who := pt.Of(e.To)
			if e.To == e.From {
				who = "self"
			}
			text := fmt.Sprintf("%s %s", e.Letter, who)
			switch {
			case e.To != e.From && e.Kind == "ended":
				// What the record was, then: "was a maintainer from … until …",
				// not "no current role from … until …".
				text += "  was " + letterRole(e.Letter)
			case e.To != e.From:
				text += "  " + roleWord(nodes[e.To].Role)
			}
			text += edgeWhen(e)
			if e.Lead {
				text += "  <- lead path"
			}
			at, isHome := home[e.To]
			more := e.To != e.From && !expanded[e.To] && len(out[e.To]) > 0 && (!isHome || at == edgeIndex[npub][i])
			if e.To != e.From && !more && len(out[e.To]) > 0 {
				text += "  (expanded " + map[bool]string{true: "above", false: "below"}[expanded[e.To]] + ")"
			}
			// Wrapped between words to the terminal, continuing under
			// the branch so the tree's lines stay connected.
			cont := prefix + next + "  "
			for k, l := range termui.Wrap(text, width-utf8.RuneCountInString(cont)) {
				if k == 0 {
					fmt.Fprintf(w, "%s%s%s\n", prefix, branch, l)
				} else {
					fmt.Fprintf(w, "%s%s\n", cont, l)
				}
			}
			if more {
				walk(e.To, prefix+next)
			}
		}
	}
	root := g.Coordinate.Npub
	fmt.Fprintf(w, "%s  %s, selected\n", pt.Of(root), roleWord(nodes[root].Role))
	walk(root, "")
	// People no walk from the root reaches (a lead path or component
	// member only reachable against an edge's direction).
	for _, n := range g.Nodes {
		if !expanded[n.Npub] && len(out[n.Npub]) > 0 {
			fmt.Fprintf(w, "%s  %s\n", pt.Of(n.Npub), roleWord(n.Role))
			walk(n.Npub, "")
		}
	}
}

func roleWord(role string) string {
	switch role {
	case "invited":
		return "invited maintainer (not yet accepted)"
	case "invited-moderator":
		return "invited moderator (not yet accepted)"
	case "none", "":
		return "no role"
	case "former":
		return "no current role"
	}
	return role
}

// letterRole is the role a record's letter gives, with its article.
func letterRole(letter string) string {
	switch letter {
	case "M":
		return "the lead"
	case "m":
		return "a maintainer"
	case "o":
		return "a moderator"
	}
	return letter
}

// edgeWhen is an edge's dates and kind in words.
func edgeWhen(e report.GraphEdge) string {
	s := ""
	if e.Start != nil {
		s = " since " + graph.HumanTime(*e.Start)
	}
	switch e.Kind {
	case "defer":
		return s + " [history copy: defer]"
	case "ended":
		if e.End != nil {
			return strings.Replace(s, " since ", " from ", 1) + " until " + graph.HumanTime(*e.End) + " [ended]"
		}
		return s + " [ended]"
	}
	return s
}

// nodeLabel is a person's diagram label: name (if any), short npub, role.
func nodeLabel(n report.GraphNode, pt render.PeopleText) []string {
	var parts []string
	if n.Name != nil {
		parts = append(parts, termtext.Line(*n.Name))
	}
	parts = append(parts, pt.Key(n.Npub, false), n.Role)
	if n.Selected {
		parts = append(parts, "selected")
	}
	return parts
}

// renderGraphDOT prints Graphviz source: one node per person (its id the
// full npub), one edge per record; defer copies dashed, ended records
// dotted and grey, the lead path bold.
func renderGraphDOT(w io.Writer, g *report.Graph, pt render.PeopleText) {
	q := func(s string) string {
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
	}
	fmt.Fprintf(w, "digraph %s {\n", q(termtext.Line(g.Coordinate.Identifier)))
	fmt.Fprintln(w, "  rankdir=LR;")
	fmt.Fprintln(w, "  node [shape=box];")
	for _, n := range g.Nodes {
		parts := nodeLabel(n, pt)
		for i := range parts {
			parts[i] = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(parts[i])
		}
		attrs := `label="` + strings.Join(parts, `\n`) + `"`
		switch n.Role {
		case "invited", "invited-moderator":
			attrs += ", style=dashed"
		case "lead":
			attrs += ", penwidth=2"
		}
		fmt.Fprintf(w, "  %s [%s];\n", q(n.Npub), attrs)
	}
	for _, e := range g.Edges {
		attrs := "label=" + q(e.Letter)
		switch {
		case e.Kind == "defer":
			attrs += ", style=dashed"
		case e.Kind == "ended":
			attrs += ", style=dotted, color=gray"
		case e.Lead:
			attrs += ", penwidth=2"
		}
		fmt.Fprintf(w, "  %s -> %s [%s];\n", q(e.From), q(e.To), attrs)
	}
	fmt.Fprintln(w, "}")
}

// renderGraphMermaid prints a Mermaid flowchart of the same graph.
func renderGraphMermaid(w io.Writer, g *report.Graph, pt render.PeopleText) {
	esc := strings.NewReplacer(`&`, "#amp;", `"`, "#quot;", `<`, "#lt;", `>`, "#gt;", "|", "#124;")
	id := map[string]string{}
	fmt.Fprintln(w, "flowchart LR")
	for i, n := range g.Nodes {
		id[n.Npub] = fmt.Sprintf("n%d", i)
		parts := nodeLabel(n, pt)
		for j := range parts {
			parts[j] = esc.Replace(parts[j])
		}
		fmt.Fprintf(w, "  %s[\"%s\"]\n", id[n.Npub], strings.Join(parts, "<br/>"))
	}
	for _, e := range g.Edges {
		arrow := "-->"
		switch {
		case e.Kind == "defer" || e.Kind == "ended":
			arrow = "-.->"
		case e.Lead:
			arrow = "==>"
		}
		label := e.Letter
		if e.Kind != "active" {
			label += " " + e.Kind
		}
		fmt.Fprintf(w, "  %s %s|%s| %s\n", id[e.From], arrow, label, id[e.To])
	}
}
