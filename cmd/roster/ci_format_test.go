package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
)

// workflowCommand is one parsed GitHub Actions workflow command.
type workflowCommand struct {
	Command string
	Props   map[string]string
	Message string
}

var (
	workflowLine = regexp.MustCompile(`^::([a-z-]+)(?: ([^:]*))?::(.*)$`)
	workflowProp = regexp.MustCompile(`^([A-Za-z]+)=([^,:]*)$`)
	// escapes the runner decodes; any other % sequence is a grammar error.
	dataEscape = regexp.MustCompile(`%(25|0D|0A)|%`)
	propEscape = regexp.MustCompile(`%(25|0D|0A|3A|2C)|%`)
)

// unescapeStrict decodes a workflow command value, failing on a "%" that
// starts no escape the grammar knows.
func unescapeStrict(t *testing.T, s string, re *regexp.Regexp) string {
	t.Helper()
	return re.ReplaceAllStringFunc(s, func(m string) string {
		switch m {
		case "%25":
			return "%"
		case "%0D":
			return "\r"
		case "%0A":
			return "\n"
		case "%3A":
			return ":"
		case "%2C":
			return ","
		}
		t.Fatalf("unescaped %% in workflow command value %q", s)
		return m
	})
}

// parseWorkflowCommands is a strict parser of the workflow-command grammar
// (::command key=value,key=value::message): every line of out must be one
// of error, warning or notice, with well-formed, escaped properties and
// message.
func parseWorkflowCommands(t *testing.T, out string) []workflowCommand {
	t.Helper()
	var cmds []workflowCommand
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		m := workflowLine.FindStringSubmatch(line)
		if m == nil || strings.ContainsAny(line, "\r") {
			t.Fatalf("not a workflow command: %q\n%s", line, out)
		}
		c := workflowCommand{Command: m[1], Props: map[string]string{}}
		switch c.Command {
		case "error", "warning", "notice":
		default:
			t.Fatalf("unexpected workflow command %q in %q", c.Command, line)
		}
		if m[2] != "" {
			for _, p := range strings.Split(m[2], ",") {
				pm := workflowProp.FindStringSubmatch(p)
				if pm == nil {
					t.Fatalf("malformed property %q in %q", p, line)
				}
				c.Props[pm[1]] = unescapeStrict(t, pm[2], propEscape)
			}
		}
		c.Message = unescapeStrict(t, m[3], dataEscape)
		cmds = append(cmds, c)
	}
	return cmds
}

// Rule (--format github): repo health prints GitHub Actions workflow
// commands, values escaped as the command grammar requires (so text from
// events cannot end a command or start another), exits as without it, and
// appends a Markdown job summary to $GITHUB_STEP_SUMMARY naming the
// verdict, the maintainers and each finding's actor and command.
func TestHealthFormatGitHubIsWellFormedWorkflowCommands(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	publish(t, relays[0].URL(), removalDone(t, true)...)
	summary := filepath.Join(t.TempDir(), "summary.md")
	env := testEnv(t)
	env["GITHUB_STEP_SUMMARY"] = summary
	base := []string{"repo", "health", "--no-git-servers", "--repo", alice.naddr("proj"), "--relay", relays[0].URL()}
	for _, strict := range []string{"", "--strict", "--strict=all"} {
		args := append([]string{}, base...)
		if strict != "" {
			args = append(args, strict)
		}
		plain := invocation{Env: testEnv(t)}.roster(t, args...)
		r := invocation{Env: env}.roster(t, append(args, "--format", "github")...)
		if r.Code != plain.Code {
			t.Fatalf("%s: --format github exit %d, without it %d:\n%s%s", strict, r.Code, plain.Code, r.Out, r.Err)
		}
		cmds := parseWorkflowCommands(t, r.Out)
		var removal, verdict *workflowCommand
		for i, c := range cmds {
			switch c.Props["title"] {
			case "roster: removed-by-lead":
				removal = &cmds[i]
			case "roster: repository health":
				verdict = &cmds[i]
			}
		}
		if removal == nil || removal.Command != "warning" || !strings.Contains(removal.Message, carol.npub()+" should run: roster repo follow-lead") {
			t.Fatalf("%s: removal annotation %+v:\n%s", strict, removal, r.Out)
		}
		want := "notice"
		if r.Code != cmdutil.ExitOK {
			want = "error"
		}
		if verdict == nil || verdict.Command != want {
			t.Fatalf("%s: verdict annotation %+v, want %s:\n%s", strict, verdict, want, r.Out)
		}
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	s := string(md)
	if strings.Count(s, "## roster repository health") != 3 || !strings.Contains(s, "Maintainer (confirmed)") ||
		!strings.Contains(s, "`roster repo follow-lead --repo ") || !strings.Contains(s, "| removed") && !strings.Contains(s, "`removed-by-lead`") {
		t.Fatalf("job summary:\n%s", s)
	}
}

// Rule (--format github): what an event says cannot break out of a
// workflow command: "%", ":", "," and line breaks in a value are escaped.
func TestGitHubWorkflowCommandEscapesHostileText(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	hostile := "50% done:\r\n::error::pwned, really\n"
	render.GhCommand(&b, "warning", "t:i,t%le\n::x", hostile)
	cmds := parseWorkflowCommands(t, b.String())
	if len(cmds) != 1 || cmds[0].Props["title"] != `t:i,t%le\n::x` || cmds[0].Message != `50% done:\r`+"\n"+`::error::pwned, really`+"\n" {
		t.Fatalf("parsed %+v from %q", cmds, b.String())
	}
}
