package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/commands"
	cliroot "github.com/roster-cli/roster/internal/cli/root"
	"github.com/roster-cli/roster/suggest"
	"github.com/spf13/cobra"
)

// A shared flag given to a command that would ignore it is a usage error
// naming the flag and the command, so that `roster version --repo garbage`
// cannot pass silently; before or after the command's name alike. Only
// the commands that read a flag have it (cmdutil/flags.go).
func TestGlobalFlagAGivenCommandIgnoresIsRefused(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args      []string
		cmd, flag string
	}{
		{[]string{"version", "--repo", "garbage"}, "version", "--repo"},
		{[]string{"version", "--offline"}, "version", "--offline"},
		{[]string{"--relay", "wss://x.example", "version"}, "version", "--relay"},
		{[]string{"whoami", "--relay", "wss://x.example"}, "whoami", "--relay"},
		{[]string{"whoami", "--repo", "origin"}, "whoami", "--repo"},
		{[]string{"login", "--timeout", "5s", "--generate"}, "login", "--timeout"},
		{[]string{"logout", "--offline"}, "logout", "--offline"},
		{[]string{"cache", "info", "--timeout", "5s"}, "cache info", "--timeout"},
		{[]string{"cache", "clear", "--relay", "wss://x.example"}, "cache clear", "--relay"},
		{[]string{"dev", "relay", "--home", "/tmp/nowhere"}, "dev relay", "--home"},
		{[]string{"dev", "relay", "--repo", "origin"}, "dev relay", "--repo"},
		{[]string{"project", "show", "naddr1x", "--repo", "origin"}, "project show", "--repo"},
		{[]string{"workspace", "show", "--repo", "origin"}, "workspace show", "--repo"},
		{[]string{"group", "show", "g", "--repo", "origin"}, "group show", "--repo"},
		{[]string{"completion", "bash", "--home", "/tmp/nowhere"}, "completion bash", "--home"},
		{[]string{"completion", "bash", "--json"}, "completion bash", "--json"},
		{[]string{"completion", "zsh", "--jq", ".x"}, "completion zsh", "--jq"},
	}
	for _, c := range cases {
		r := clitest.Invocation{Env: clitest.HomeEnv(t), Dir: t.TempDir()}.Roster(t, c.args...)
		cmd := "roster " + c.cmd
		text := r.Err + r.Out // with --json the error is JSON on stdout (with --jq on stderr)
		if r.Code != cmdutil.ExitUsage || !strings.Contains(text, cmd+" does not take "+c.flag+":") || !strings.Contains(text, cmd+" --help") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q (want %s refused by %s)", c.args, r.Code, r.Out, r.Err, c.flag, cmd)
		}
	}
	// --json: the refusal is a usage error object naming the command and
	// the first flag it does not take.
	r := clitest.Invocation{Env: clitest.HomeEnv(t)}.Roster(t, "version", "--json", "--repo", "garbage", "--offline")
	var e struct {
		Error struct {
			Code    string `json:"code"`
			Details struct {
				Command string   `json:"command"`
				Flags   []string `json:"flags"`
			} `json:"details"`
		} `json:"error"`
	}
	if r.Code != cmdutil.ExitUsage || json.Unmarshal([]byte(r.Out), &e) != nil || e.Error.Code != "usage" ||
		e.Error.Details.Command != "roster version" || !slices.Equal(e.Error.Details.Flags, []string{"--repo"}) {
		t.Errorf("--json refusal: exit %d %q", r.Code, r.Out)
	}
}

// The commands that read a global flag still take it, before or after
// their name.
func TestGlobalFlagACommandReadsIsAccepted(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	for _, args := range [][]string{
		{"--home", home, "cache", "info"},
		{"cache", "info", "--home", home, "--json"},
		{"whoami", "--home", home, "--json"},
		{"version", "--json"},
		{"version", "--jq", ".schema"},
	} {
		r := clitest.Invocation{Env: map[string]string{}}.Roster(t, args...)
		if r.Code != cmdutil.ExitOK && !(args[0] == "whoami" && r.Code == cmdutil.ExitUsage && strings.Contains(r.Out, "no-signer")) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, r.Code, r.Out, r.Err)
		}
	}
	// A repository read takes all of them: it fails on the unreachable
	// relay (exit 4), not on the flags.
	r := clitest.Invocation{Env: clitest.HomeEnv(t), Dir: t.TempDir()}.Roster(t, "repo", "health", "--repo", clitest.Alice.Naddr("proj"),
		"--relay", "ws://127.0.0.1:1", "--timeout", "2s", "--home", t.TempDir(), "--json")
	if r.Code != cmdutil.ExitIncomplete {
		t.Errorf("repo health with every global flag: exit %d, stdout %q, stderr %q", r.Code, r.Out, r.Err)
	}
}

// A command's --help lists only the global flags it reads.
func TestHelpListsOnlyTheGlobalFlagsACommandReads(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args        []string
		has, hasNot []string
	}{
		{[]string{"version", "--help"}, []string{"--json", "--jq"}, []string{"--repo", "--relay", "--home", "--offline", "--timeout"}},
		{[]string{"help", "whoami"}, []string{"--json", "--home"}, []string{"--repo", "--relay", "--offline"}},
		{[]string{"repo", "health", "--help"}, []string{"--repo", "--relay", "--home", "--offline", "--timeout", "--json-fields"}, nil},
		{[]string{"workspace", "show", "--help"}, []string{"--relay", "--home"}, []string{"--repo"}},
		{[]string{"completion", "bash", "--help"}, nil, []string{"--json", "--home", "--relay"}},
	} {
		r := clitest.Invocation{Env: map[string]string{}}.Roster(t, c.args...)
		for _, f := range c.has {
			if !strings.Contains(r.Out, f+" ") {
				t.Errorf("%v: help lacks %s:\n%s", c.args, f, r.Out)
			}
		}
		for _, f := range c.hasNot {
			if strings.Contains(r.Out, f+" ") {
				t.Errorf("%v: help lists %s, which it ignores:\n%s", c.args, f, r.Out)
			}
		}
	}
}

// The flags a suggested command repeats (suggest.Selectors: --repo,
// --relay, --home) are exactly the ones that command has, so following a
// suggestion is never refused.
func TestSuggestedSelectorsAreFlagsTheCommandTakes(t *testing.T) {
	t.Parallel()
	a := &cmdutil.Factory{Io: &cmdutil.IoStreams{Getenv: func(string) string { return "" }}}
	root := cliroot.NewRootCmd(a, commands.All)
	root.InitDefaultHelpCmd()
	sel := suggest.Selectors{Repo: "origin", Relays: []string{"wss://r.example"}, Home: "/h"}
	n := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if !c.HasParent() || c.Hidden || !c.Runnable() || (c.HasSubCommands() && c.Name() != "repo" && c.Name() != "state" && c.Name() != "pending") {
			return
		}
		n++
		key := cmdutil.CommandKey(c)
		got := sel.Apply(suggest.Roster(strings.Fields(key)...))
		for _, f := range []string{"repo", "relay", "home"} {
			if got.Has("--"+f) != cmdutil.Reads(c, f) {
				t.Errorf("roster %s: suggestions repeat --%s: %v; the command has it: %v", key, f, got.Has("--"+f), cmdutil.Reads(c, f))
			}
		}
	}
	walk(root)
	if n < 40 {
		t.Fatalf("walked %d commands", n)
	}
}
