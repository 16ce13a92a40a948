package main

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/help"
)

// roster.version/v2 carries what the Go toolchain records: the module
// version go install sets, vcs.revision and vcs.modified from a checkout
// build, and the Go version; a build without VCS information has a null
// commit.
func TestVersionReadsTheBuildInformation(t *testing.T) {
	t.Parallel()
	rev := "0123456789abcdef0123456789abcdef01234567"
	installed := help.BuildVersion(&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"}}, true)
	if installed.Version != "v1.2.3" || installed.Commit != nil || installed.Dirty || installed.Go != "go1.26.0" {
		t.Errorf("go install build: %+v", installed)
	}
	checkout := help.BuildVersion(&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}}, true)
	if checkout.Version != "devel" || checkout.Commit == nil || *checkout.Commit != rev || !checkout.Dirty {
		t.Errorf("checkout build: %+v", checkout)
	}
	var b strings.Builder
	help.PrintVersion(&b, checkout)
	if want := "roster devel\ncommit " + rev + " (with uncommitted changes)\nbuilt with go1.26.0\n"; b.String() != want {
		t.Errorf("human form %q, want %q", b.String(), want)
	}
	if none := help.BuildVersion(nil, false); none.Version != "devel" || none.Commit != nil {
		t.Errorf("no build info: %+v", none)
	}
}

// `roster version --json` and `roster --version` describe the running
// binary; --version prints what `roster version` prints.
func TestVersionCommandAndFlagAgree(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: map[string]string{}}.Roster(t, "version", "--json")
	var v map[string]any
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &v) != nil {
		t.Fatalf("version --json: exit %d %q %q", r.Code, r.Out, r.Err)
	}
	for _, k := range []string{"schema", "version", "commit", "dirty", "go"} {
		if _, ok := v[k]; !ok {
			t.Errorf("version --json has no %q: %s", k, r.Out)
		}
	}
	if v["schema"] != "roster.version/v2" || v["go"] != runtime.Version() {
		t.Errorf("version --json: %s", r.Out)
	}
	human := clitest.Invocation{Env: map[string]string{}}.Roster(t, "version")
	flag := clitest.Invocation{Env: map[string]string{}}.Roster(t, "--version")
	if human.Code != cmdutil.ExitOK || flag.Code != cmdutil.ExitOK || flag.Out != human.Out || !strings.HasPrefix(flag.Out, "roster ") {
		t.Errorf("--version: exit %d %q, version: exit %d %q", flag.Code, flag.Out, human.Code, human.Out)
	}
}
