package main

import (
	"fmt"
	"github.com/roster-cli/roster/report"
	"io"

	"github.com/spf13/cobra"

	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/termtext"
)

// newRepoHealthCmd is `roster repo health`, the CI gate: exit 0 healthy, 5
// on an error finding (or any finding with --strict), 4 when a relay did not
// answer, because an unhealthy repository must not pass on partial evidence.
func newRepoHealthCmd(a *app) *cobra.Command {
	var strict bool
	cmd := &cobra.Command{
		Use:   "health",
		Short: "Check repository health for CI (exit 0 healthy, 5 unhealthy, 4 incomplete)",
		Long: `roster repo health resolves the repository like 'roster repo' but requires
every relay to answer, lists the health findings (inconsistent maintainers
compatibility tags, invalid self-roles, unresolved lead paths, ...) with the
command that repairs each, and sets the exit code for CI:

  0  healthy (warnings allowed unless --strict)
  5  at least one error finding (with --strict: any finding)
  4  not every relay answered, or the coordinate was not found`,
		Example: `  roster repo health
  roster repo health --strict --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// The human findings name people; the JSON carries npubs only.
			a.profiles = !a.opts.JSON
			v, err := a.loadRepo(cmd.Context(), completeEvidence)
			if err != nil {
				return err
			}
			rep := report.FromView(v)
			h := &report.Health{Schema: report.HealthSchema, Coordinate: rep.Coordinate, Strict: strict,
				Findings: rep.Health, Relays: rep.Relays, Complete: rep.Complete}
			h.Errors, h.Warnings = countFindings(h.Findings)
			h.Healthy = h.Errors == 0 && (!strict || h.Warnings == 0)
			if a.opts.JSON {
				if err := writeJSON(a, h); err != nil {
					return err
				}
			} else {
				renderHealthHuman(a.io.Out, h, termui.NewStyles(a.io.Out, a.io.color()), a.people(rep.Names, rep.Viewer), a.terminalWidth())
				a.printAdvisories(v)
			}
			if !h.Healthy {
				return &exitError{Code: exitUnhealthy, Kind: "unhealthy", Printed: true,
					Err: fmt.Errorf("repository health: %d error(s), %d warning(s)", h.Errors, h.Warnings)}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&strict, "strict", false, "fail (exit 5) on warnings too")
	return cmd
}

// renderHealthHuman lists each finding with who it concerns and the command
// that repairs it, then the verdict; rows wrap to width (0: never).
func renderHealthHuman(w io.Writer, h *report.Health, st termui.Styles, pt peopleText, width int) {
	p := &termui.Lines{W: w, St: st, Width: width}
	// Finding messages and commands may quote event text: one line each.
	p.Row("repository", h.Coordinate.Npub+"/"+termtext.Line(h.Coordinate.Identifier))
	for _, f := range h.Findings {
		sev := st.Apply(st.Warn, "warning")
		if f.Severity == "error" {
			sev = st.Apply(st.Bad, "error")
		}
		p.Row(sev, pt.Prose(termtext.Line(f.Code+": "+f.Message)))
		if f.Author != nil {
			p.Note(pt.Prose("announcement of " + *f.Author))
		}
		if f.Command != nil {
			p.NoteWhole("repair with: " + termtext.Line(*f.Command))
		}
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
