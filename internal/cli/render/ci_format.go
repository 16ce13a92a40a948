package render

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/termtext"
	"github.com/spf13/cobra"
)

// Output formats of the CI-facing reads (repo health, repo check-event,
// repo state): the human text, or GitHub Actions workflow commands.
const (
	formatText   = "text"
	FormatGitHub = "github"
)

// AddCIFormatFlag registers --format on a CI-facing read.
func AddCIFormatFlag(cmd *cobra.Command, format *string) {
	cmd.Flags().StringVar(format, "format", formatText, "text, or github: GitHub Actions workflow commands (::error, ::warning, ::notice) and a job summary in $GITHUB_STEP_SUMMARY")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{formatText, FormatGitHub}, cobra.ShellCompDirectiveNoFileComp))
}

// CheckCIFormat refuses an unknown --format, and --format github with --json
// (one document on stdout at a time).
func CheckCIFormat(a *cmdutil.Factory, format string) error {
	switch format {
	case formatText:
		return nil
	case FormatGitHub:
		if a.Opts.JSON {
			return cmdutil.UsageErr("--format github and --json both choose what is printed on stdout: give one")
		}
		return nil
	}
	return cmdutil.UsageErr("unknown --format %q: text or github", format)
}

// ghEscapeData escapes a workflow command's message as the runner's
// command grammar requires ("%" first, then CR and LF), so nothing in
// it can end the command's line or start another command.
func ghEscapeData(s string) string {
	s = strings.ReplaceAll(s, "%", "%25")
	s = strings.ReplaceAll(s, "\r", "%0D")
	return strings.ReplaceAll(s, "\n", "%0A")
}

// ghEscapeProp escapes a property value: as data, plus ":" and ",", which
// separate the command from its properties and the properties from each
// other.
func ghEscapeProp(s string) string {
	s = ghEscapeData(s)
	s = strings.ReplaceAll(s, ":", "%3A")
	return strings.ReplaceAll(s, ",", "%2C")
}

// GhCommand prints one workflow command (error, warning or notice) with a
// title. Text that came from events or relays is made printable first
// (termtext.Block: control characters become visible escapes; roster's
// own line breaks stay and are then escaped as the grammar says).
func GhCommand(w io.Writer, command, title, message string) {
	fmt.Fprintf(w, "::%s title=%s::%s\n", command, ghEscapeProp(termtext.Line(title)), ghEscapeData(termtext.Block(message)))
}

// GhSeverity is the workflow command of a finding's severity.
func GhSeverity(severity string) string {
	if severity == "error" {
		return "error"
	}
	return "warning"
}

// AppendStepSummary appends Markdown to the file $GITHUB_STEP_SUMMARY
// names, when it is set; a summary that cannot be written is a warning
// command, never a different exit code.
func AppendStepSummary(a *cmdutil.Factory, markdown string) {
	path := a.Io.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		_, err = f.WriteString(markdown)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		GhCommand(a.Io.Out, "warning", "roster: job summary", "could not write $GITHUB_STEP_SUMMARY: "+err.Error())
	}
}

// MdText is s as inline Markdown text: one line, printable, with every
// character that Markdown or the HTML GitHub renders would read as markup
// escaped, so a profile name or relay text cannot format or link.
func MdText(s string) string {
	s = termtext.Line(s)
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '`', '*', '_', '{', '}', '[', ']', '(', ')', '#', '+', '-', '.', '!', '|', '~', '>', '<', '&', '"', '\'', ':', '@':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// MdCode is s as inline code: backticks cannot occur inside it, so they
// are replaced by a visible escape.
func MdCode(s string) string {
	s = strings.ReplaceAll(termtext.Line(s), "`", `\x60`)
	// A table cell ends at "|" even inside code; GitHub reads "\|" there.
	return "`" + strings.ReplaceAll(s, "|", `\|`) + "`"
}
