package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
)

// Rule (--format github): repo health prints GitHub Actions workflow
// commands, values escaped as the command grammar requires (so text from
// events cannot end a command or start another), exits as without it, and
// appends a Markdown job summary to $GITHUB_STEP_SUMMARY naming the
// verdict, the maintainers and each finding's actor and command.
func TestHealthFormatGitHubIsWellFormedWorkflowCommands(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), clitest.RemovalDone(t, true)...)
	summary := filepath.Join(t.TempDir(), "summary.md")
	env := clitest.TestEnv(t)
	env["GITHUB_STEP_SUMMARY"] = summary
	base := []string{"repo", "health", "--no-git-servers", "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL()}
	for _, strict := range []string{"", "--strict", "--strict=all"} {
		args := append([]string{}, base...)
		if strict != "" {
			args = append(args, strict)
		}
		plain := clitest.Invocation{Env: clitest.TestEnv(t)}.Roster(t, args...)
		r := clitest.Invocation{Env: env}.Roster(t, append(args, "--format", "github")...)
		if r.Code != plain.Code {
			t.Fatalf("%s: --format github exit %d, without it %d:\n%s%s", strict, r.Code, plain.Code, r.Out, r.Err)
		}
		cmds := clitest.ParseWorkflowCommands(t, r.Out)
		var removal, verdict *clitest.WorkflowCommand
		for i, c := range cmds {
			switch c.Props["title"] {
			case "roster: removed-by-lead":
				removal = &cmds[i]
			case "roster: repository health":
				verdict = &cmds[i]
			}
		}
		if removal == nil || removal.Command != "warning" || !strings.Contains(removal.Message, clitest.Carol.Npub()+" should run: roster repo follow-lead") {
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
	cmds := clitest.ParseWorkflowCommands(t, b.String())
	if len(cmds) != 1 || cmds[0].Props["title"] != `t:i,t%le\n::x` || cmds[0].Message != `50% done:\r`+"\n"+`::error::pwned, really`+"\n" {
		t.Fatalf("parsed %+v from %q", cmds, b.String())
	}
}
