package state

import (
	"fmt"
	"io"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	clirepo "github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
)

// renderStateGitServers is repo state's Git-server section: each server's
// verdict, the refs that differ and the command that repairs it.
func renderStateGitServers(w io.Writer, servers []report.GitServer) {
	if len(servers) == 0 {
		return
	}
	fmt.Fprintln(w, "git servers compared with the state:")
	for _, s := range servers {
		line := "  " + termtext.Line(s.URL) + "  " + s.Verdict
		if s.Reason != nil {
			line += ": " + termtext.Line(*s.Reason)
		}
		fmt.Fprintln(w, line)
		for _, r := range s.Refs {
			fmt.Fprintf(w, "    %s  %s (state %s, server %s)\n", termtext.Line(r.Ref), r.Verdict, shortOr(r.State), shortOr(r.Server))
		}
		if s.Command != nil {
			fmt.Fprintf(w, "    repair with: %s\n", termtext.Line(*s.Command))
		}
	}
}

func shortOr(oid *string) string {
	switch {
	case oid == nil:
		return "-"
	case len(*oid) > 12:
		return termtext.Line((*oid)[:12])
	}
	return termtext.Line(*oid)
}

// renderStateGitHub is repo state as workflow commands: a notice naming the
// state, a warning when this checkout is not aligned with it (the actions
// that align it), a warning per Git server that does not serve it, and the
// job summary.
func renderStateGitHub(a *cmdutil.Factory, rep report.StateReport) {
	w := a.Io.Out
	repo := rep.Coordinate.Npub + "/" + rep.Coordinate.Identifier
	var md strings.Builder
	fmt.Fprintf(&md, "## roster repository state of %s\n\n", render.MdCode(repo))
	if rep.State == nil {
		render.GhCommand(w, "notice", "roster: repository state", repo+" has no state: no confirmed maintainer has published a kind 30618 state")
		md.WriteString("No confirmed maintainer has published a state.\n")
	} else {
		render.GhCommand(w, "notice", "roster: repository state", fmt.Sprintf("%s: state %s by %s, HEAD %s", repo, rep.State.EventID, rep.State.Author, orDash(rep.State.Head)))
		fmt.Fprintf(&md, "State %s by %s, HEAD %s\n\n| ref | commit |\n| --- | --- |\n", render.MdCode(rep.State.EventID), render.MdCode(rep.State.Author), render.MdCode(orDash(rep.State.Head)))
		for _, k := range sortedKeys(rep.State.Refs) {
			fmt.Fprintf(&md, "| %s | %s |\n", render.MdCode(k), render.MdCode(rep.State.Refs[k]))
		}
	}
	if !rep.Complete {
		render.GhCommand(w, "warning", "roster: incomplete", "not every relay answered; a newer state may exist")
	}
	if c := rep.Checkout; c != nil && rep.State != nil && !c.Aligned {
		render.GhCommand(w, "warning", "roster: checkout not aligned", "to align this checkout with the state:\n"+strings.Join(preflight.RenderRefActions(c.Align), "\n"))
	}
	if len(rep.GitServers) > 0 {
		md.WriteString("\n| Git server | compared with the state |\n| --- | --- |\n")
	}
	for _, s := range rep.GitServers {
		text := s.Verdict
		if s.Reason != nil {
			text += ": " + *s.Reason
		}
		fmt.Fprintf(&md, "| %s | %s |\n", render.MdCode(s.URL), render.MdText(text))
		if s.Verdict == clirepo.ServerMatches {
			continue
		}
		msg := fmt.Sprintf("the Git server %s is %s", s.URL, text)
		if len(s.Refs) > 0 {
			msg += " (" + clirepo.RefList(s.Refs) + ")"
		}
		if s.Command != nil {
			msg += "\nrepair with: " + *s.Command
		}
		render.GhCommand(w, "warning", "roster: git server "+s.Verdict, msg)
	}
	md.WriteString("\n")
	render.AppendStepSummary(a, md.String())
}
