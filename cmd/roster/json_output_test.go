package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// --jq runs a jq expression over the JSON a command prints and implies
// --json: a string result is printed as text, anything else as JSON, one
// result per line.
func TestJQSelectsFromTheCommandsJSON(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: map[string]string{}}.Roster(t, "version", "--jq", ".go")
	if r.Code != cmdutil.ExitOK || r.Out != runtime.Version()+"\n" {
		t.Errorf("--jq .go: exit %d %q %q", r.Code, r.Out, r.Err)
	}
	r = clitest.Invocation{Env: map[string]string{}}.Roster(t, "version", "--jq", ".schema, .dirty, {go}")
	if want := "roster.version/v2\nfalse\n{\n  \"go\": \"" + runtime.Version() + "\"\n}\n"; r.Code != cmdutil.ExitOK || r.Out != want {
		t.Errorf("several results: exit %d %q, want %q", r.Code, r.Out, want)
	}
}

// --jq and --json-fields apply to a real read over relays, and to the
// object a command prints with a non-zero exit (repo health's exit 5).
func TestJQAndJSONFieldsOnARepositoryRead(t *testing.T) {
	t.Parallel()
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	clitest.Publish(t, relay.URL(), clitest.LeadShaped(t, "proj")...)
	base := []string{"--repo", clitest.Alice.Naddr("proj"), "--relay", relay.URL(), "--timeout", "5s"}
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, append([]string{"repo", "--jq", `.maintainers[] | select(.status == "confirmed") | .npub`}, base...)...)
	if r.Code != cmdutil.ExitOK || len(strings.Fields(r.Out)) != 2 || !strings.Contains(r.Out, clitest.Alice.Npub()+"\n") || !strings.Contains(r.Out, clitest.Bob.Npub()+"\n") {
		t.Errorf("repo --jq: exit %d %q %q", r.Code, r.Out, r.Err)
	}
	r = clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, append([]string{"repo", "--json-fields", "lead_maintainer,complete"}, base...)...)
	if want := "{\n  \"lead_maintainer\": \"" + clitest.Alice.Npub() + "\",\n  \"complete\": true\n}\n"; r.Code != cmdutil.ExitOK || r.Out != want {
		t.Errorf("repo --json-fields: exit %d %q, want %q (stderr %q)", r.Code, r.Out, want, r.Err)
	}
	r = clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, append([]string{"repo", "health", "--strict", "--jq", ".healthy"}, base...)...)
	if r.Code != cmdutil.ExitOK && r.Code != cmdutil.ExitUnhealthy || (r.Out != "true\n" && r.Out != "false\n") {
		t.Errorf("repo health --jq: exit %d %q %q", r.Code, r.Out, r.Err)
	}
}

// A --jq expression that does not parse is exit 2 naming the expression,
// before any relay is asked (the relay here does not exist: a read would
// be exit 4); one that fails on the output is exit 2 too.
func TestJQErrorsAreUsageErrorsNamingTheExpression(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, "repo", "--jq", ".maintainers[", "--repo", clitest.Alice.Naddr("proj"), "--relay", "ws://127.0.0.1:1")
	var e struct {
		Error struct {
			Code    string         `json:"code"`
			Message string         `json:"message"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if r.Code != cmdutil.ExitUsage || r.Out != "" || json.Unmarshal([]byte(r.Err), &e) != nil || e.Error.Code != "usage" ||
		!strings.HasPrefix(e.Error.Message, "--jq '.maintainers[': ") || e.Error.Details["jq"] != ".maintainers[" {
		t.Errorf("parse error: exit %d %q %q", r.Code, r.Out, r.Err)
	}
	r = clitest.Invocation{Env: map[string]string{}}.Roster(t, "version", "--jq", ".version | tonumber")
	if r.Code != cmdutil.ExitUsage || r.Out != "" || !strings.Contains(r.Err, `--jq '.version | tonumber': `) || strings.Contains(r.Err, "roster.version") {
		t.Errorf("run-time error: exit %d %q %q", r.Code, r.Out, r.Err)
	}
}

// --json-fields keeps the named top-level fields in the order asked; an
// unknown one is exit 2 listing the fields the output has.
func TestJSONFieldsSelectTopLevelFields(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: map[string]string{}}.Roster(t, "version", "--json-fields", "go,schema")
	if want := "{\n  \"go\": \"" + runtime.Version() + "\",\n  \"schema\": \"roster.version/v2\"\n}\n"; r.Code != cmdutil.ExitOK || r.Out != want {
		t.Errorf("exit %d %q, want %q", r.Code, r.Out, want)
	}
	r = clitest.Invocation{Env: map[string]string{}}.Roster(t, "version", "--json-fields", "go,nosuch")
	if r.Code != cmdutil.ExitUsage || r.Out != "" || !strings.Contains(r.Err, "no field nosuch in this output; its fields are schema, version, commit, dirty, go") {
		t.Errorf("unknown field: exit %d %q %q", r.Code, r.Out, r.Err)
	}
	r = clitest.Invocation{Env: map[string]string{}}.Roster(t, "version", "--json-fields", ",")
	if r.Code != cmdutil.ExitUsage || r.Out != "" || !strings.Contains(r.Err, "--json-fields names no field") {
		t.Errorf("empty list: exit %d %q %q", r.Code, r.Out, r.Err)
	}
	// Both: fields first, then the expression.
	r = clitest.Invocation{Env: map[string]string{}}.Roster(t, "version", "--json-fields", "schema", "--jq", "keys[]")
	if r.Code != cmdutil.ExitOK || r.Out != "schema\n" {
		t.Errorf("--json-fields with --jq: exit %d %q %q", r.Code, r.Out, r.Err)
	}
}

// With --jq or --json-fields stdout carries only the selected output: an
// error goes to stderr, as the whole documented {"error": ...} object
// (plain --json keeps it on stdout).
func TestSelectedOutputSendsTheErrorObjectToStderr(t *testing.T) {
	t.Parallel()
	type errDoc struct {
		Error struct {
			Code     string   `json:"code"`
			Commands []string `json:"commands"`
		} `json:"error"`
	}
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, "repo", "--jq", ".lead_maintainer", "--json-fields", "complete")
	var e errDoc
	if r.Code != cmdutil.ExitUsage || r.Out != "" || json.Unmarshal([]byte(r.Err), &e) != nil || e.Error.Code != "no-coordinate" || len(e.Error.Commands) == 0 {
		t.Errorf("--jq with --json-fields: exit %d stdout %q stderr %q", r.Code, r.Out, r.Err)
	}
	for _, sel := range [][]string{{"--jq", ".complete"}, {"--json-fields", "complete"}} {
		args := append([]string{"repo", "--relay", "ws://127.0.0.1:1", "--repo", clitest.Alice.Naddr("proj")}, sel...)
		r = clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, args...)
		e = errDoc{}
		if r.Code != cmdutil.ExitIncomplete || r.Out != "" || json.Unmarshal([]byte(r.Err), &e) != nil || e.Error.Code != "incomplete" {
			t.Errorf("%v: exit %d stdout %q stderr %q", sel, r.Code, r.Out, r.Err)
		}
	}
	// Plain --json: the error object stays on stdout, stderr stays empty.
	r = clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, "repo", "--relay", "ws://127.0.0.1:1", "--repo", clitest.Alice.Naddr("proj"), "--json")
	e = errDoc{}
	if r.Code != cmdutil.ExitIncomplete || json.Unmarshal([]byte(r.Out), &e) != nil || e.Error.Code != "incomplete" || r.Err != "" {
		t.Errorf("--json: exit %d stdout %q stderr %q", r.Code, r.Out, r.Err)
	}
}

// The dev relay's one-line start object goes through --jq too.
func TestJQOnTheDevRelayStartLine(t *testing.T) {
	t.Parallel()
	run := clitest.StartDevRelayCmd(t, "dev", "relay", "--addr", "127.0.0.1:0", "--jq", ".url")
	line := run.WaitOutput(t, "\n")
	if !strings.HasPrefix(line, "ws://127.0.0.1:") || strings.Contains(line, "{") {
		t.Errorf("dev relay --jq .url: %q", line)
	}
	run.Stop()
	<-run.Done
}
