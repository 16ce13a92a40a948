package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"gopkg.in/yaml.v3"
)

// actionStep is one step of the composite action in action.yml.
type actionStep struct {
	ID    string            `yaml:"id"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	Run   string            `yaml:"run"`
}

func actionSteps(t *testing.T) map[string]actionStep {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs struct {
			Using string       `yaml:"using"`
			Steps []actionStep `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if doc.Runs.Using != "composite" {
		t.Fatalf("action.yml runs.using is %q, want composite", doc.Runs.Using)
	}
	out := map[string]actionStep{}
	for _, s := range doc.Runs.Steps {
		if s.ID != "" {
			out[s.ID] = s
		}
	}
	return out
}

// runActionStep runs a step's shell script as the runner would (sh, the
// step's env with the given input values, GITHUB_OUTPUT and
// GITHUB_STEP_SUMMARY files), with this test binary as roster.
func runActionStep(t *testing.T, s actionStep, env map[string]string) (out string, code int, outputs, summary string) {
	t.Helper()
	// Every variable the script reads from the step's env is declared there.
	for _, v := range regexp.MustCompile(`\$\{?(ROSTER_ACTION_[A-Z_]+|ROSTER_BIN)`).FindAllStringSubmatch(s.Run, -1) {
		if _, ok := s.Env[v[1]]; !ok {
			t.Fatalf("step %s reads $%s, which its env does not set", s.ID, v[1])
		}
	}
	dir := t.TempDir()
	outFile, sumFile := filepath.Join(dir, "output"), filepath.Join(dir, "summary.md")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(s.Shell, "-c", s.Run)
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), clitest.RunAsRoster + "=1", "RUNNER_TEMP=" + dir,
		"GITHUB_OUTPUT=" + outFile, "GITHUB_STEP_SUMMARY=" + sumFile, "ROSTER_BIN=" + exe}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	b, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	o, _ := os.ReadFile(outFile)
	sm, _ := os.ReadFile(sumFile)
	return string(b), code, string(o), string(sm)
}

// Rule (a ready workflow): the action's health step, run against a dev
// relay, prints well-formed GitHub Actions annotations, writes the job
// summary and its exit-code output, and its strict input chooses the gate:
// "true" passes once the maintainers did their part, "all" fails on a
// removed maintainer's stale announcement, anything else is a usage error.
func TestActionHealthStepAnnotatesAndGates(t *testing.T) {
	t.Parallel()
	steps := actionSteps(t)
	health, ok := steps["health"]
	if !ok || health.Shell != "sh" {
		t.Fatalf("action.yml has no sh step with id health: %+v", steps)
	}
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), clitest.RemovalDone(t, true)...)
	inputs := func(strict string) map[string]string {
		return map[string]string{"ROSTER_HOME": t.TempDir(), "HOME": t.TempDir(),
			"ROSTER_ACTION_REPOSITORY": clitest.Alice.Naddr("proj"), "ROSTER_ACTION_RELAYS": relays[0].URL() + "\n",
			"ROSTER_ACTION_STRICT": strict, "ROSTER_ACTION_GIT_SERVERS": "true", "ROSTER_ACTION_TIMEOUT": "5s"}
	}
	for _, c := range []struct {
		strict, verdict string
		code            int
	}{{"true", "notice", cmdutil.ExitOK}, {"all", "error", cmdutil.ExitUnhealthy}, {"false", "notice", cmdutil.ExitOK}} {
		out, code, outputs, summary := runActionStep(t, health, inputs(c.strict))
		if code != c.code || !strings.Contains(outputs, "exit-code="+strconv.Itoa(c.code)) {
			t.Fatalf("strict=%s: exit %d (want %d), outputs %q:\n%s", c.strict, code, c.code, outputs, out)
		}
		cmds := clitest.ParseWorkflowCommands(t, out)
		var sawRemoval, sawVerdict bool
		for _, w := range cmds {
			switch w.Props["title"] {
			case "roster: removed-by-lead":
				sawRemoval = w.Command == "warning" && strings.Contains(w.Message, clitest.Carol.Npub()+" should run: roster repo follow-lead")
			case "roster: repository health":
				sawVerdict = w.Command == c.verdict
			}
		}
		if !sawRemoval || !sawVerdict || !strings.Contains(summary, "## roster repository health") {
			t.Fatalf("strict=%s: annotations:\n%s\nsummary:\n%s", c.strict, out, summary)
		}
	}
	out, code, _, _ := runActionStep(t, health, inputs("maybe"))
	if code != cmdutil.ExitUsage || len(clitest.ParseWorkflowCommands(t, out)) != 1 {
		t.Fatalf("strict=maybe: exit %d:\n%s", code, out)
	}
	// The build step uses a given binary as it is, without building.
	build := steps["build"]
	build.Env = map[string]string{"ROSTER_ACTION_BINARY": "/opt/roster"}
	if _, code, outputs, _ := runActionStep(t, build, build.Env); code != 0 || !strings.Contains(outputs, "binary=/opt/roster") {
		t.Fatalf("build step with roster-binary: exit %d, outputs %q", code, outputs)
	}
}
