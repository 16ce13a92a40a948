package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// schemaName matches a roster JSON schema name such as "roster.repo/v2".
var schemaName = regexp.MustCompile(`"(roster\.[a-z][a-z.-]*/v[0-9]+)"`)

// docs/json.md lists every command's schema: each schema name the command
// tree can print must appear there, so a script author finds it.
func TestEverySchemaIsListedInDocsJSON(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "json.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The command tree: main here, the commands under internal/cli.
	var files []string
	for _, dir := range []string{".", filepath.Join("..", "..", "internal", "cli")} {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
				files = append(files, p)
			}
			if os.IsNotExist(err) {
				return filepath.SkipDir
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	found := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range schemaName.FindAllSubmatch(src, -1) {
			found[string(m[1])] = f
		}
	}
	if len(found) < 10 {
		t.Fatalf("found only %d schema names in the command tree: %v", len(found), found)
	}
	var missing []string
	for name, f := range found {
		if !strings.Contains(string(doc), "`"+name+"`") {
			missing = append(missing, name+" ("+f+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("docs/json.md does not list: %s", strings.Join(missing, ", "))
	}
}

// The small commands' --json objects name their schema first.
func TestSmallCommandsJSONNameTheirSchema(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	for want, args := range map[string][]string{
		"roster.version/v2":     {"version", "--json"},
		"roster.whoami/v1":      {"whoami", "--json"},
		"roster.cache-info/v2":  {"cache", "info", "--json"},
		"roster.cache-clear/v1": {"cache", "clear", "--json"},
	} {
		r := clitest.Invocation{Env: env}.Roster(t, args...)
		var v struct {
			Schema string `json:"schema"`
		}
		if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &v) != nil || v.Schema != want ||
			!strings.HasPrefix(strings.TrimSpace(r.Out), `{`+"\n"+`  "schema": "`+want+`"`) {
			t.Errorf("%v: exit %d, want schema %s first:\n%s%s", args, r.Code, want, r.Out, r.Err)
		}
	}
	run := clitest.StartDevRelayCmd(t, "dev", "relay", "--addr", "127.0.0.1:0", "--json")
	line := run.WaitOutput(t, "}")
	if !strings.HasPrefix(line, `{"schema":"roster.dev-relay/v1",`) {
		t.Errorf("dev relay --json: %q", line)
	}
	run.Stop()
	<-run.Done
}
