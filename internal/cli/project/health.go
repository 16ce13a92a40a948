// `roster project health`: `repo health` across every member repository
// of a project, read in one discovery; and the member rows of `project
// show`.

package project

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"

	"github.com/spf13/cobra"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/projects"
)

const (
	projectShowSchema   = "roster.project/v2"
	projectHealthSchema = "roster.project-health/v1"
)

// --strict scopes, as `repo health` has them.
const (
	strictMaintainers = "maintainers"
	strictAll         = "all"
)

// NewCmdHealth builds `roster project health`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdHealth(a *cmdutil.Factory, runF func(context.Context, *HealthOptions) error) *cobra.Command {
	return newProjectHealthCmd(a, runF)
}

func newProjectHealthCmd(a *cmdutil.Factory, runF func(context.Context, *HealthOptions) error) *cobra.Command {
	o := &HealthOptions{Factory: a}
	var strict, format string
	cmd := &cobra.Command{
		Use:   "health <naddr|coordinate>",
		Short: "Check every member repository's health for CI (exit 0 healthy, 5 unhealthy, 4 incomplete)",
		Long: `Reads the project's relay-signed state, then every member repository (its "a"
tags, at most 16) in one discovery with complete evidence (each round one
request per relay for all of them), and judges each as 'roster repo health'
does (its maintainer-graph findings; the Git servers are compared by
'roster repo health' in each repository's checkout, not here):

  0  every member repository is healthy (warnings allowed unless --strict)
  5  a member repository has an error finding; with --strict also a warning
     its current maintainers can act on; with --strict=all any warning
  4  the project was not found, a relay did not answer for the project
     itself, or a member repository could not be judged: a relay did not
     answer, no relay holds its announcement, or it is beyond the 16 read`,
		Example: `  roster project health 30621:<owner-npub>:my-project --relay wss://relay.example
  roster project health naddr1... --strict --format github   # in GitHub Actions`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch strict {
			case "true":
				strict = strictMaintainers
			case "false":
				strict = ""
			}
			if strict != "" && strict != strictMaintainers && strict != strictAll {
				return cmdutil.UsageErr("--strict=%s: use --strict (warnings the current maintainers can act on fail) or --strict=all (every warning fails)", strict)
			}
			if err := render.CheckCIFormat(a, format); err != nil {
				return err
			}
			if a.Opts.Offline {
				return cmdutil.UsageErr("project health needs every relay's answer; drop --offline")
			}
			c, hints, err := ProjectParseArg(args[0])
			if err != nil {
				return err
			}
			if runF != nil {
				o.Arg, o.Coordinate, o.Hints, o.Strict, o.Format = args[0], c, hints, strict, format
				return runF(cmd.Context(), o)
			}
			relays := a.DefaultRelays()
			if len(relays) == 0 {
				relays = hints
			}
			if len(relays) == 0 {
				return projectNoRelays(c)
			}
			pool := a.Pool(cmdutil.AuthLazy)
			rd := projects.Read(cmd.Context(), pool, relays, c)
			pool.Close()
			projectCachePut(a, rd)
			if rd.Best == nil {
				return projectNotFound(a, args[0], c, rd)
			}
			var members []projects.Member
			if !rd.Best.Deleted {
				members = rd.Best.Document.Members
			}
			repos, err := projectRepositories(cmd.Context(), a, relays, members, discovery.Complete, !a.Opts.JSON, strict != "", strict == strictAll)
			if err != nil {
				return err
			}
			h := report.ProjectHealth{Schema: projectHealthSchema, Coordinate: c.String(), Naddr: projectNaddr(c, rd.BestURL),
				Revision: rd.Best.Revision, Deleted: rd.Best.Deleted, Strict: strict != "", Repositories: repos,
				Relays: rd.Relays, Complete: rd.Complete}
			if strict != "" {
				h.StrictScope = &strict
			}
			for _, r := range repos {
				h.Errors += r.Health.Errors
				h.Warnings += r.Health.Warnings
				h.GatingWarnings += r.Health.GatingWarnings
				switch {
				case r.Status != report.RepositoryResolved:
					h.Unresolved++
				case r.Health.Verdict == report.VerdictUnhealthy:
					h.Unhealthy++
				}
			}
			// A relay that did not answer for the project may hold other
			// members: the verdict is not "healthy" then.
			h.Healthy = h.Unhealthy == 0 && h.Unresolved == 0 && rd.Complete
			// An incomplete verdict says why (when the rows do not) and
			// what to run next, in every output: the report is printed, so
			// the error that ends the command is not.
			var why string
			var next []suggest.Command
			switch {
			case h.Unhealthy > 0:
			case h.Unresolved > 0:
				next = unresolvedCommands(args[0], repos)
			case !rd.Complete:
				// A relay that did not answer for the project may hold a
				// newer revision listing other repositories: the members
				// judged are not known to be the project's.
				why = "not every relay answered for the project itself, so a newer revision may list other repositories"
				next = []suggest.Command{suggest.Roster("project", "show", args[0]).Because("see what each relay answered")}
			}
			h.Commands = append([]string{}, render.Render(a, next)...)
			pt := render.People(a, projectNames(repos), "")
			switch {
			case a.Opts.JSON:
				if err := cmdutil.WriteJSON(a, h); err != nil {
					return err
				}
			case format == render.FormatGitHub:
				renderProjectHealthGitHub(a.Io.Out, h, pt, why)
				render.AppendStepSummary(a, projectHealthMarkdown(h, pt))
			default:
				renderProjectHealthHuman(a, h, pt)
				renderProjectHealthNext(a, why, h.Commands)
			}
			verdict := fmt.Sprintf("project health: %d of %d member repositories unhealthy, %d not judged; %d error(s), %d warning(s)",
				h.Unhealthy, len(repos), h.Unresolved, h.Errors, h.Warnings)
			switch {
			case h.Unhealthy > 0:
				return &cmdutil.ExitError{Code: cmdutil.ExitUnhealthy, Kind: "unhealthy", Printed: true, Err: fmt.Errorf("%s", verdict)}
			case h.Unresolved > 0:
				return &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "project-repositories-incomplete", Printed: true, Err: fmt.Errorf("%s", verdict),
					Details: map[string]any{"repositories": unresolvedAddresses(repos)}, Commands: next}
			case !rd.Complete:
				return &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "incomplete", Printed: true,
					Err: fmt.Errorf("%s; but %s", verdict, why), Details: map[string]any{"relays": rd.Relays}, Commands: next}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&strict, "strict", "", "fail (exit 5) on warnings the current maintainers can act on too; --strict=all: on every warning")
	cmd.Flags().Lookup("strict").NoOptDefVal = strictMaintainers
	render.AddCIFormatFlag(cmd, &format)
	return cmd
}

// unresolvedCommands are what to run when a member was not judged: see what
// the relays hold and, only when a relay timed out (a longer --timeout
// helps no relay that refused the connection or holds nothing), the same
// health with more time.
func unresolvedCommands(arg string, repos []report.ProjectRepository) []suggest.Command {
	cmds := []suggest.Command{suggest.Roster("project", "show", arg).Because("see what each relay holds of the repositories")}
	for _, r := range repos {
		if r.Status != report.RepositoryResolved && r.TimedOut {
			return append(cmds, suggest.Roster("project", "health", arg).With("--timeout", "30s").Because("give slow relays longer"))
		}
	}
	return cmds
}

func unresolvedAddresses(repos []report.ProjectRepository) []string {
	var out []string
	for _, r := range repos {
		if r.Status != report.RepositoryResolved {
			out = append(out, r.Address)
		}
	}
	return out
}

// projectNames are every member's people's names together.
func projectNames(repos []report.ProjectRepository) report.Names {
	out := report.Names{}
	for _, r := range repos {
		for k, v := range r.Names {
			out[k] = v
		}
	}
	return out
}

// repositoryVerdict is one member's verdict in words.
func repositoryVerdict(r report.ProjectRepository) string {
	if r.Status != report.RepositoryResolved {
		return r.Status + ": " + r.Reason
	}
	return fmt.Sprintf("%s (%d error(s), %d warning(s))", r.Health.Verdict, r.Health.Errors, r.Health.Warnings)
}

// repositoryTitle is how a member is named in one line.
func repositoryTitle(r report.ProjectRepository) string {
	return r.Coordinate.Npub + "/" + r.Coordinate.Identifier
}

// renderProjectRepositories prints the member rows of `project show`:
// each repository with its verdict, lead and confirmed maintainers.
func renderProjectRepositories(a *cmdutil.Factory, row func(string, ...any), repos []report.ProjectRepository) {
	pt := render.People(a, projectNames(repos), "")
	row("  repositories  %d", len(repos))
	for _, r := range repos {
		row("  repository    %s  %s", termtext.Line(repositoryTitle(r)), termtext.Line(repositoryVerdict(r)))
		if r.Status != report.RepositoryResolved {
			continue
		}
		if r.Lead != nil {
			row("    lead        %s", pt.Of(r.Lead.Npub))
		} else {
			row("    lead        none")
		}
		var names []string
		for _, m := range r.Maintainers {
			names = append(names, pt.Of(m.Npub))
		}
		row("    maintainers %s", strings.Join(names, ", "))
	}
}

// renderProjectHealthHuman lists each member with its verdict and
// findings, then the project's verdict.
func renderProjectHealthHuman(a *cmdutil.Factory, h report.ProjectHealth, pt render.PeopleText) {
	w := a.Io.Out
	width := render.TerminalWidth(a)
	row := func(format string, args ...any) { render.FitLine(w, width, 16, fmt.Sprintf(format, args...)) }
	row("project       %s", termtext.Line(h.Coordinate))
	for _, r := range h.Repositories {
		row("repository    %s  %s", termtext.Line(repositoryTitle(r)), termtext.Line(repositoryVerdict(r)))
		if r.Lead != nil {
			row("  lead        %s", pt.Of(r.Lead.Npub))
		}
		for _, f := range r.Findings {
			row("  %-11s %s", f.Severity, termtext.Line(f.Code)+": "+pt.Text(f.MessageText()))
			row("              %s", render.ActorLine(f, pt))
		}
	}
	verdict := "healthy"
	if !h.Healthy {
		verdict = "unhealthy"
		if h.Unhealthy == 0 {
			verdict = "not judged"
		}
	}
	row("verdict       %s: %d member repositories, %d unhealthy, %d not judged; %d error(s), %d warning(s)",
		verdict, len(h.Repositories), h.Unhealthy, h.Unresolved, h.Errors, h.Warnings)
}

// renderProjectHealthNext follows the human report of an incomplete
// verdict with why it is incomplete (when the rows do not say it) and the
// commands to run next.
func renderProjectHealthNext(a *cmdutil.Factory, why string, cmds []string) {
	width := render.TerminalWidth(a)
	if why != "" {
		render.FitLine(a.Io.Out, width, 16, "incomplete    "+why)
	}
	for _, c := range cmds {
		render.FitLine(a.Io.Out, width, 16, "next:         "+termtext.Line(c))
	}
}

// renderProjectHealthGitHub prints a workflow command per finding (titled
// with the repository), one error per member that could not be judged, the
// verdict, and for an incomplete verdict a notice with why (when the rows
// do not say it) and the commands to run next.
func renderProjectHealthGitHub(w io.Writer, h report.ProjectHealth, pt render.PeopleText, why string) {
	for _, r := range h.Repositories {
		if r.Status != report.RepositoryResolved {
			render.GhCommand(w, "error", "roster: repository "+r.Status+" ("+r.Coordinate.Identifier+")", repositoryTitle(r)+": "+r.Reason)
			continue
		}
		for _, f := range r.Findings {
			render.GhCommand(w, render.GhSeverity(f.Severity), "roster: "+f.Code+" ("+r.Coordinate.Identifier+")", repositoryTitle(r)+": "+pt.Text(f.MessageText())+"\n"+render.ActorLine(f, pt))
		}
	}
	verdict := fmt.Sprintf("%d member repositories, %d unhealthy, %d not judged; %d error(s), %d warning(s)", len(h.Repositories), h.Unhealthy, h.Unresolved, h.Errors, h.Warnings)
	if h.Healthy {
		render.GhCommand(w, "notice", "roster: project health", h.Coordinate+" is healthy: "+verdict)
	} else {
		render.GhCommand(w, "error", "roster: project health", h.Coordinate+" is not healthy: "+verdict)
	}
	if len(h.Commands) > 0 {
		msg := "run next:\n" + strings.Join(h.Commands, "\n")
		if why != "" {
			msg = why + "; " + msg
		}
		render.GhCommand(w, "notice", "roster: next", msg)
	}
}

// projectHealthMarkdown is the job summary: one row per member.
func projectHealthMarkdown(h report.ProjectHealth, pt render.PeopleText) string {
	var b strings.Builder
	verdict := "healthy"
	if !h.Healthy {
		verdict = "not healthy"
	}
	fmt.Fprintf(&b, "## roster project health: %s\n\nProject %s: %d member repositories, %d unhealthy, %d not judged\n\n",
		render.MdText(verdict), render.MdCode(h.Coordinate), len(h.Repositories), h.Unhealthy, h.Unresolved)
	b.WriteString("| repository | lead | maintainers | verdict |\n| --- | --- | --- | --- |\n")
	for _, r := range h.Repositories {
		lead := ""
		if r.Lead != nil {
			lead = pt.Of(r.Lead.Npub)
		}
		var names []string
		for _, m := range r.Maintainers {
			names = append(names, pt.Of(m.Npub))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", render.MdCode(repositoryTitle(r)), render.MdText(lead), render.MdText(strings.Join(names, ", ")), render.MdText(repositoryVerdict(r)))
	}
	b.WriteString("\n")
	return b.String()
}
