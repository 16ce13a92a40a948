package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	clihelp "github.com/roster-cli/roster/internal/cli/help"
)

// `roster help <topic>` prints the topic: exit codes, environment
// variables, JSON formatting.
func TestHelpTopicsPrintTheirText(t *testing.T) {
	t.Parallel()
	want := map[string][]string{
		"exit-codes":  {"  0  success", "  2  usage:", "  5  repo health found errors", "  6  published, but", `{"error": {"code"`},
		"environment": {"ROSTER_HOME", "ROSTER_RELAYS", "ROSTER_REPO", "ROSTER_SECRET_KEY", "NO_COLOR", "CLICOLOR ", "CLICOLOR_FORCE", "TERM", "XDG_CACHE_HOME"},
		"formatting":  {"--json ", "--jq <expression>", "--json-fields a,b", "exit 2"},
	}
	for topic, parts := range want {
		r := clitest.Invocation{Env: map[string]string{}}.Roster(t, "help", topic)
		if r.Code != cmdutil.ExitOK {
			t.Errorf("help %s: exit %d %q", topic, r.Code, r.Err)
		}
		for _, p := range parts {
			if !strings.Contains(r.Out, p) {
				t.Errorf("help %s lacks %q:\n%s", topic, p, r.Out)
			}
		}
	}
	r := clitest.Invocation{Env: map[string]string{}}.Roster(t, "help")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "roster help exit-codes") {
		t.Errorf("roster help does not point at the topics: exit %d\n%s", r.Code, r.Out)
	}
	r = clitest.Invocation{Env: map[string]string{}}.Roster(t, "help", "repo", "health")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "roster repo health [flags]") {
		t.Errorf("help repo health: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}

// An unknown topic is exit 2 with what may have been meant and every
// topic there is.
func TestUnknownHelpTopicIsUsageErrorListingTheTopics(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: map[string]string{}}.Roster(t, "help", "nosuch")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, `no help topic or command "nosuch"`) ||
		!strings.Contains(r.Err, "help topics: environment, exit-codes, formatting") || !strings.Contains(r.Err, "run: roster help\n") {
		t.Errorf("help nosuch: exit %d %q", r.Code, r.Err)
	}
	r = clitest.Invocation{Env: map[string]string{}}.Roster(t, "help", "exit-code")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "did you mean exit-codes?") || !strings.Contains(r.Err, "run: roster help exit-codes") {
		t.Errorf("help exit-code: exit %d %q", r.Code, r.Err)
	}
	r = clitest.Invocation{Env: map[string]string{}}.Roster(t, "help", "repo", "helth")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "did you mean health?") || !strings.Contains(r.Err, "run: roster help repo health") {
		t.Errorf("help repo helth: exit %d %q", r.Code, r.Err)
	}
	r = clitest.Invocation{Env: map[string]string{}}.Roster(t, "help", "formating")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "did you mean formatting?") {
		t.Errorf("help formating: exit %d %q", r.Code, r.Err)
	}
}

// docs/exit-codes.md's table lists exactly the codes and meanings of the
// exit-codes topic (exitCodeMeanings), which covers every exit constant.
func TestExitCodeTopicMatchesDocs(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "exit-codes.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| ([0-9]+) \\| (.+) \\|$")
	docs := map[int]string{}
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		code, _ := strconv.Atoi(m[1])
		docs[code] = strings.ReplaceAll(m[2], "`", "")
	}
	if len(docs) != len(clihelp.ExitCodeMeanings) {
		t.Errorf("docs/exit-codes.md lists %d exit codes, the topic %d", len(docs), len(clihelp.ExitCodeMeanings))
	}
	for _, e := range clihelp.ExitCodeMeanings {
		if docs[e.Code] != e.Meaning {
			t.Errorf("exit %d: docs say %q, the topic %q", e.Code, docs[e.Code], e.Meaning)
		}
	}
	for _, c := range []int{cmdutil.ExitOK, cmdutil.ExitFailure, cmdutil.ExitUsage, cmdutil.ExitRefused, cmdutil.ExitIncomplete, cmdutil.ExitUnhealthy, cmdutil.ExitUnverified} {
		if _, ok := docs[c]; !ok {
			t.Errorf("exit %d is not documented", c)
		}
	}
}

// The environment topic names every environment variable roster's own
// code reads (not the tests' harness, internal/clitest).
func TestEnvironmentTopicNamesEveryVariableRead(t *testing.T) {
	t.Parallel()
	read := regexp.MustCompile(`[Gg]etenv\("([A-Z_]+)"\)`)
	found := map[string]string{}
	err := filepath.WalkDir(filepath.Join("..", ".."), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "clitest") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range read.FindAllSubmatch(src, -1) {
			found[string(m[1])] = path
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) < 5 {
		t.Fatalf("found only %v", found)
	}
	for name, path := range found {
		if strings.HasPrefix(name, "ROSTER_TEST_") {
			continue
		}
		if !strings.Contains(clihelp.EnvironmentTopic, name+" ") && !strings.Contains(clihelp.EnvironmentTopic, name+"\n") {
			t.Errorf("%s reads %s, which roster help environment does not describe", path, name)
		}
	}
}

// docs/json.md documents --jq and --json-fields as the formatting topic does.
func TestFormattingFlagsAreDocumentedInDocsJSON(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "json.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--jq", "--json-fields", "roster help formatting"} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("docs/json.md does not mention %s", want)
		}
	}
}

// A misspelt subcommand gets a did-you-mean at every level, not only the
// top one, with the corrected command's help to read.
func TestUnknownSubcommandSuggestsAtEveryLevel(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args       []string
		mean, help string
	}{
		{[]string{"repo", "helth"}, "health", "roster repo health --help"},
		{[]string{"cache", "clera"}, "clear", "roster cache clear --help"},
		{[]string{"workspace", "shwo"}, "show", "roster workspace show --help"},
		{[]string{"workspace", "section", "remvoe"}, "remove", "roster workspace section remove --help"},
		{[]string{"helth"}, "project health or repo health", "roster repo health --help"},
		{[]string{"vresion"}, "version", "roster version --help"},
	} {
		r := clitest.Invocation{Env: clitest.HomeEnv(t), Dir: t.TempDir()}.Roster(t, c.args...)
		if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "did you mean "+c.mean+"?") || !strings.Contains(r.Err, "run: "+c.help+"\n") {
			t.Errorf("%v: exit %d, stderr %q", c.args, r.Code, r.Err)
		}
	}
}
