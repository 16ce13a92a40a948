package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// A wrong number of arguments names the missing (or extra) argument and
// shows the usage line, instead of cobra's "accepts 1 arg(s), received 0".
func TestArgumentCountErrorsNameTheArgument(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args  []string
		parts []string
	}{
		{[]string{"project", "show"}, []string{"roster project show needs <naddr|coordinate>: missing <naddr|coordinate>", "usage: roster project show <naddr|coordinate> [flags]"}},
		{[]string{"group", "show", "a", "b"}, []string{`roster group show takes <group>, but was given 2 argument(s): "b" is one too many`, "usage: roster group show <group> [flags]"}},
		{[]string{"version", "extra"}, []string{`roster version takes no arguments, but was given "extra"`, "usage: roster version [flags]"}},
		{[]string{"workspace", "section", "rename", "s1"}, []string{"missing <new-label>", "usage: roster workspace section rename <section> <new-label> [flags]"}},
		{[]string{"project", "relate", "naddr1x"}, []string{"missing <channel-uuid>"}},
	} {
		r := clitest.Invocation{Env: clitest.HomeEnv(t)}.Roster(t, c.args...)
		if r.Code != cmdutil.ExitUsage || strings.Contains(r.Err, "arg(s)") {
			t.Errorf("%v: exit %d, stderr %q", c.args, r.Code, r.Err)
		}
		for _, p := range c.parts {
			if !strings.Contains(r.Err, p) {
				t.Errorf("%v: stderr lacks %q:\n%s", c.args, p, r.Err)
			}
		}
	}
}

// A duration without a unit, or a boolean that is none, is named in plain
// words ("--timeout 10: a duration needs a unit, e.g. 10s"), not with
// Go's parser text.
func TestFlagValueErrorsInPlainWords(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"repo", "--timeout", "10"}, "--timeout 10: a duration needs a unit, e.g. 10s"},
		{[]string{"repo", "--timeout=1.5"}, "--timeout 1.5: a duration needs a unit, e.g. 1.5s"},
		{[]string{"repo", "--timeout", "soon"}, "--timeout soon: not a duration; write it like 10s, 1m30s or 500ms"},
		{[]string{"repo", "health", "--strict=maybe"}, "--strict=maybe: use --strict (warnings the current maintainers can act on fail) or --strict=all"},
	} {
		r := clitest.Invocation{Env: clitest.HomeEnv(t)}.Roster(t, c.args...)
		if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, c.want) || strings.Contains(r.Err, "time: ") || strings.Contains(r.Err, "strconv") {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, r.Code, r.Err, c.want)
		}
	}
}

// A --relay that is a web server, not a relay, is named as such in the
// read's report, not with the websocket library's handshake text.
func TestRelayURLOfAWebServerIsNamedPlainly(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("<html>hello</html>"))
	}))
	defer srv.Close()
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, "repo", "health", "--repo", clitest.Alice.Naddr("proj"), "--relay", url, "--timeout", "5s")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, url+": failed: answered HTTP 200, not a websocket: is this a relay URL?") ||
		strings.Contains(r.Err, "handshake") {
		t.Errorf("exit %d, stderr %q", r.Code, r.Err)
	}
}
