package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/dev"
	"github.com/roster-cli/roster/report"
)

// The demo carries the tour: every try: line the banner prints runs as
// printed against a freshly seeded relay — the clone of the announced URL
// linked with git config nostr.repo (and `roster repo` in it with no
// --repo), each README tour command that can run against the demo, and
// check-event's two verdicts (alice's status authorized, exit 0; dave's
// after his removal not, exit 5).
func TestDemoTryLinesRunAsPrinted(t *testing.T) {
	t.Parallel()
	relay := devrelay.StartN(t, 1, devrelay.Options{Authorities: dev.DevRelayAuthorities()})[0]
	demo, cleanup, err := dev.SeedDemo(relay, time.Now(), func(msg string) { t.Fatal(msg) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	started := report.DevRelay{URL: relay.URL(), Naddr: demo.Naddr, ProjectNaddr: demo.Project.Naddr, GroupID: demo.Group.ID,
		CloneURL: demo.CloneURL, StatusByMaintainer: demo.Issue.ByMaintainer, StatusByRemoved: demo.Issue.ByRemoved}
	lines := dev.DemoTryLines(started, demo)
	if len(lines) < 15 || !strings.HasPrefix(lines[0], "git clone") {
		t.Fatalf("try lines %q: want the clone line first and one per tour command", lines)
	}
	sawCheck := map[int]bool{}
	for _, line := range lines {
		want := cmdutil.ExitOK
		if m := regexp.MustCompile(`\(exit (\d)\)`).FindStringSubmatch(line); m != nil {
			want, _ = strconv.Atoi(m[1])
		}
		out := runTryLine(t, line, t.TempDir(), want)
		if strings.Contains(line, "check-event") {
			sawCheck[want] = true
			if want == cmdutil.ExitUnhealthy && !strings.Contains(out, "not authorized") {
				t.Errorf("dave's status verdict is not \"not authorized\":\n%s", out)
			}
		}
	}
	if !sawCheck[cmdutil.ExitOK] || !sawCheck[cmdutil.ExitUnhealthy] {
		t.Fatalf("the try lines do not show both check-event verdicts: %v", sawCheck)
	}
}

// runTryLine runs one paste-ready line the way a POSIX shell would for the
// forms the banner prints: "A && B", "cd DIR", "git ...", "roster ..."
// with an optional ROSTER_SECRET_KEY=$(printf roster-demo-NAME | sha256sum
// | cut -c1-64) prefix, a trailing "# comment". The last roster command
// must exit want, every other step 0. It returns the last step's output.
func runTryLine(t *testing.T, line, cwd string, want int) string {
	t.Helper()
	if i := strings.Index(line, "   # "); i >= 0 {
		line = line[:i]
	}
	home := t.TempDir()
	steps := strings.Split(line, " && ")
	var last string
	keyPrefix := regexp.MustCompile(`^ROSTER_SECRET_KEY=\$\(printf roster-demo-([a-z]+) \| sha256sum \| cut -c1-64\) `)
	for i, step := range steps {
		env := map[string]string{"ROSTER_HOME": home}
		if m := keyPrefix.FindStringSubmatch(step); m != nil {
			env["ROSTER_SECRET_KEY"] = devrelay.DemoKey(m[1])
			step = step[len(m[0]):]
		}
		words := clitest.ShellWords(t, step)
		code := want
		if i < len(steps)-1 {
			code = cmdutil.ExitOK
		}
		switch words[0] {
		case "cd":
			cwd = filepath.Join(cwd, words[1])
		case "git":
			cmd := exec.Command("git", words[1:]...)
			cmd.Dir = cwd
			b, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", line, err, b)
			}
			last = string(b)
		case "roster":
			r := clitest.Invocation{Env: env, Dir: cwd}.Roster(t, words[1:]...)
			if r.Code != code {
				t.Fatalf("%s\n(step %q in %s): exit %d, want %d\nout: %s\nerr: %s", line, step, cwd, r.Code, code, r.Out, r.Err)
			}
			last = r.Out + r.Err
		default:
			t.Fatalf("%s: a step this test cannot run: %q", line, step)
		}
	}
	return last
}
