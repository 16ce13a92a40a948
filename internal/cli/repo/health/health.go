package health

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
	"github.com/spf13/cobra"
)

// --strict scopes (report.Health.StrictScope).
const (
	strictMaintainers = "maintainers"
	strictAll         = "all"
)

// NewRepoHealthCmd is `roster repo health`, the CI gate: exit 0 healthy, 5
// on an error finding (or, with --strict, a warning the maintainers can act
// on), 4 when a relay did not answer, because an unhealthy repository must
// not pass on partial evidence.
func NewRepoHealthCmd(a *cmdutil.Factory) *cobra.Command { return NewCmdHealth(a, nil) }

// HealthOptions are `roster repo health` as its flags gave it.
type HealthOptions struct {
	Factory *cmdutil.Factory
	// Strict is "", "maintainers" (--strict) or "all" (--strict=all).
	Strict string
	// Format is --format: "text" (the default) or "github".
	Format       string
	NoGitServers bool
}

// NewCmdHealth builds repo health; runF, when given, runs instead of the
// check with the parsed and checked options (tests).
func NewCmdHealth(a *cmdutil.Factory, runF func(context.Context, *HealthOptions) error) *cobra.Command {
	o := &HealthOptions{Factory: a}
	cmd := &cobra.Command{
		Use:   "health",
		Short: "Check repository health for CI (exit 0 healthy, 5 unhealthy, 4 incomplete)",
		Long: `roster repo health resolves the repository like 'roster repo' but requires
every relay to answer, lists the health findings (inconsistent maintainers
compatibility tags, invalid self-roles, unresolved lead paths, Git servers
that do not serve the published state, ...), each with who can act on it
and the command for that person, and sets the exit code for CI:

  0  healthy (warnings allowed unless --strict)
  5  at least one error finding; with --strict also a warning the current
     maintainers can act on; with --strict=all any warning
  4  not every relay answered, or the coordinate was not found; with
     --strict also an advertised Git server that could not be listed

An author-scoped finding (a problem in one signer's announcement) is an
error for that signer and a warning for everyone else. --strict counts the
warnings whose actor is a current maintainer (or any maintainer); those
about people outside the current roster (a removed maintainer's stale
announcement, an invitee's records) are reported but do not fail it. So
under --strict the exit code with no key, as CI runs it, is the one any
current maintainer's key gets.

Each advertised clone server is listed (git ls-remote, within --timeout)
and compared with the published kind 30618 state: matches, ahead (pushed,
not published), behind-or-rewound, diverged, differs (this checkout lacks
the objects to tell), or unreachable. --no-git-servers skips it.`,
		Example: `  roster repo health
  roster repo health --strict --json
  roster repo health --strict --format github   # in GitHub Actions`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch o.Strict { // --strict=true and =false, as when it was a boolean flag
			case "true":
				o.Strict = strictMaintainers
			case "false":
				o.Strict = ""
			}
			if o.Strict != "" && o.Strict != strictMaintainers && o.Strict != strictAll {
				return cmdutil.UsageErr("--strict=%s: use --strict (warnings the current maintainers can act on fail) or --strict=all (every warning fails)", o.Strict)
			}
			if err := render.CheckCIFormat(a, o.Format); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return healthRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.Strict, "strict", "", "fail (exit 5) on warnings the current maintainers can act on too; --strict=all: on every warning")
	cmd.Flags().Lookup("strict").NoOptDefVal = strictMaintainers
	cmd.Flags().BoolVar(&o.NoGitServers, "no-git-servers", false, "do not list the advertised Git servers or compare them with the published state")
	render.AddCIFormatFlag(cmd, &o.Format)
	return cmdutil.AddFlags(cmd, &a.Opts, cmdutil.RepoCommandFlags)
}

// healthRun reads the repository with complete evidence and reports its
// findings, with the exit code for CI.
func healthRun(ctx context.Context, o *HealthOptions) error {
	a, strict, format, noGitServers := o.Factory, o.Strict, o.Format, o.NoGitServers
	// The human findings name people; the JSON carries npubs only.
	v, err := repo.LoadRepoWith(a, ctx, cmdutil.SourceOptions{Profiles: !a.Opts.JSON}, repo.CompleteEvidence)
	if err != nil {
		return err
	}
	rep := report.FromView(v)
	h := &report.Health{Schema: report.HealthSchema, Coordinate: rep.Coordinate, Strict: strict != "",
		Findings: append(rep.Health, staleRelayFindings(v)...), Relays: rep.Relays, Complete: rep.Complete, GitServers: []report.GitServer{}}
	if strict != "" {
		h.StrictScope = &strict
	}
	if !noGitServers {
		h.GitServers = repo.GitServers(a, ctx, v)
		h.Findings = append(h.Findings, repo.GitServerFindings(h.GitServers)...)
	}
	var gating int
	h.Errors, h.Warnings, gating = report.CountFindings(h.Findings, strict == strictAll)
	h.GatingWarnings = gating
	render.PasteFindings(h.Findings, render.Selectors(a))
	unreachable := repo.UnreachableServers(h.GitServers)
	h.Healthy = h.Errors == 0 && (strict == "" || gating == 0)
	pt := render.People(a, rep.Names, rep.Viewer)
	switch {
	case a.Opts.JSON:
		if err := cmdutil.WriteJSON(a, h); err != nil {
			return err
		}
	case format == render.FormatGitHub:
		renderHealthGitHub(a.Io.Out, h, rep, pt)
		render.AppendStepSummary(a, healthSummaryMarkdown(h, rep, pt))
	default:
		renderHealthHuman(a.Io.Out, h, termui.NewStyles(a.Io.Out, a.Io.Color()), pt, render.TerminalWidth(a))
		repo.PrintAdvisories(a, v)
	}
	if !h.Healthy {
		return &cmdutil.ExitError{Code: cmdutil.ExitUnhealthy, Kind: "unhealthy", Printed: true,
			Err: fmt.Errorf("repository health: %d error(s), %d warning(s)", h.Errors, h.Warnings)}
	}
	if strict != "" && len(unreachable) > 0 {
		return gitServersIncompleteErr(unreachable)
	}
	return nil
}

// gitServersIncompleteErr is --strict's exit 4 when an advertised Git
// server could not be listed: the comparison rests on partial evidence.
func gitServersIncompleteErr(servers []report.GitServer) error {
	var lines []string
	for _, s := range servers {
		reason := ""
		if s.Reason != nil {
			reason = *s.Reason
		}
		lines = append(lines, fmt.Sprintf("  %s: %s", termtext.Line(s.URL), termtext.Line(reason)))
	}
	return &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "git-servers-unreachable",
		Err:     fmt.Errorf("repository health: these advertised Git servers could not be listed, so what they serve was not compared with the published state (--strict needs every one):\n%s", strings.Join(lines, "\n")),
		Details: map[string]any{"git_servers": servers}}
}

// strictNote says why a warning does not fail --strict.
func strictNote(f report.Finding, h *report.Health) string {
	if f.Severity == "error" || f.ActorIsMaintainer || (h.StrictScope != nil && *h.StrictScope == strictAll) {
		return ""
	}
	return "not counted by --strict: the person who can act is not a current maintainer (--strict=all counts it)"
}

// renderHealthHuman lists each finding with who can act on it and the
// command for that person, the Git servers, then the verdict; rows wrap to
// width (0: never).
func renderHealthHuman(w io.Writer, h *report.Health, st termui.Styles, pt render.PeopleText, width int) {
	p := &termui.Lines{W: w, St: st, Width: width}
	// Finding messages and commands may quote event text: one line each.
	p.Row("repository", h.Coordinate.Npub+"/"+termtext.Line(h.Coordinate.Identifier))
	for _, f := range h.Findings {
		sev := st.Apply(st.Warn, "warning")
		if f.Severity == "error" {
			sev = st.Apply(st.Bad, "error")
		}
		p.Row(sev, termtext.Line(f.Code+": "+pt.Text(f.MessageText())))
		if f.Author != nil {
			p.Note("announcement of " + pt.Of(*f.Author))
		}
		p.NoteWhole(render.ActorLine(f, pt))
		if n := strictNote(f, h); n != "" {
			p.Note(n)
		}
	}
	for _, s := range h.GitServers {
		text := s.Verdict
		if s.Reason != nil {
			text += ": " + *s.Reason
		}
		p.Row("git server", termtext.Line(s.URL+"  "+text))
	}
	verdict := st.Apply(st.Good, "healthy")
	switch {
	case !h.Healthy && h.Errors == 0:
		verdict = st.Apply(st.Bad, "unhealthy (--strict: warnings fail)")
	case !h.Healthy:
		verdict = st.Apply(st.Bad, "unhealthy")
	}
	p.Row("verdict", fmt.Sprintf("%s: %d error(s), %d warning(s), every relay answered", verdict, h.Errors, h.Warnings))
}

// renderHealthGitHub prints one workflow command per finding (error or
// warning, titled with its code, the message then who should run what),
// one per Git server that could not be listed (a warning), and the
// verdict as a notice, or an error when unhealthy.
func renderHealthGitHub(w io.Writer, h *report.Health, rep *report.Repo, pt render.PeopleText) {
	for _, f := range h.Findings {
		msg := pt.Text(f.MessageText()) + "\n" + render.ActorLine(f, pt)
		if n := strictNote(f, h); n != "" {
			msg += "\n" + n
		}
		render.GhCommand(w, render.GhSeverity(f.Severity), "roster: "+f.Code, msg)
	}
	for _, s := range repo.UnreachableServers(h.GitServers) {
		reason := ""
		if s.Reason != nil {
			reason = *s.Reason
		}
		render.GhCommand(w, "warning", "roster: git server unreachable", fmt.Sprintf("the Git server %s could not be listed (%s): what it serves was not compared with the published state", s.URL, reason))
	}
	verdict := fmt.Sprintf("%s: %d error(s), %d warning(s)", healthVerdict(h), h.Errors, h.Warnings)
	if h.Healthy {
		render.GhCommand(w, "notice", "roster: repository health", rep.Coordinate.Npub+"/"+rep.Coordinate.Identifier+" is "+verdict)
	} else {
		render.GhCommand(w, "error", "roster: repository health", rep.Coordinate.Npub+"/"+rep.Coordinate.Identifier+" is "+verdict)
	}
}

func healthVerdict(h *report.Health) string {
	switch {
	case h.Healthy:
		return "healthy"
	case h.Errors == 0:
		return "unhealthy (--strict: warnings fail)"
	}
	return "unhealthy"
}

// healthSummaryMarkdown is the job summary: the verdict, the lead, the
// maintainers with their names, the findings with their actor and
// command, and the Git servers.
func healthSummaryMarkdown(h *report.Health, rep *report.Repo, pt render.PeopleText) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## roster repository health: %s\n\n", render.MdText(healthVerdict(h)))
	fmt.Fprintf(&b, "Repository %s: %d error(s), %d warning(s)", render.MdCode(rep.Coordinate.Npub+"/"+rep.Coordinate.Identifier), h.Errors, h.Warnings)
	if h.StrictScope != nil {
		fmt.Fprintf(&b, ", %s", render.MdText("--strict="+*h.StrictScope))
	}
	b.WriteString("\n\n")
	if rep.LeadMaintainer != nil {
		fmt.Fprintf(&b, "- Lead: %s\n", render.MdText(pt.Of(*rep.LeadMaintainer)))
	}
	for _, m := range rep.Maintainers {
		fmt.Fprintf(&b, "- Maintainer (%s): %s\n", render.MdText(m.Status), render.MdText(pt.Of(m.Npub)))
	}
	if len(h.Findings) > 0 {
		b.WriteString("\n| severity | code | finding | who | command |\n| --- | --- | --- | --- | --- |\n")
		for _, f := range h.Findings {
			cmd := ""
			if f.Pasted != "" {
				cmd = render.MdCode(f.Pasted)
			} else if f.Command != nil {
				cmd = render.MdCode(*f.Command)
			}
			who := render.ActorText(f, pt)
			if strictNote(f, h) != "" {
				who += " (not a current maintainer: not counted by --strict)"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", render.MdText(f.Severity), render.MdCode(f.Code), render.MdText(pt.Text(f.MessageText())), render.MdText(who), cmd)
		}
	}
	if len(h.GitServers) > 0 {
		b.WriteString("\n| Git server | compared with the published state |\n| --- | --- |\n")
		for _, s := range h.GitServers {
			text := s.Verdict
			if s.Reason != nil {
				text += ": " + *s.Reason
			}
			fmt.Fprintf(&b, "| %s | %s |\n", render.MdCode(s.URL), render.MdText(text))
		}
	}
	b.WriteString("\n")
	return b.String()
}
