package main

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/coder/websocket"
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/workspace"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
)

// The rule (docs/usage.md "Text from relays"): human output escapes every
// relay- or event-supplied string, so a relay cannot forge a line, move the
// cursor or reorder text on the user's terminal; --json carries the
// original strings exactly.

// Hostile texts: each tries to forge the lines a reader trusts most (who
// leads, whether the answer is complete), to erase a line with CR and ESC,
// and to reorder text with a bidi override.
const (
	forgedReason    = "blocked: no\n  lead npub1attacker (explicit)\r\x1b[2Kcomplete          yes: every relay answered\u202e"
	hostileName     = "\x1b[2J\x1b[HWidget\r\nlead             npub1attacker  (explicit)"
	hostileDesc     = "a tool\u202e\u2066 evil\u2069\ncomplete         yes: every relay answered\u009b2J"
	hostileClone    = "https://git.example/w.git\n  lead npub1attacker (explicit)"
	hostileWeb      = "https://web.example/\rcomplete yes"
	hostileRelayTag = "wss://relay.example/\x1b]8;;https://evil.example\x07"
)

// hostileRelay is a websocket relay that answers every REQ with CLOSED
// (closeReqs) or an empty EOSE, and every EVENT with OK false, each carrying
// reason. devrelay is a correct relay and cannot say such things.
func hostileRelay(t *testing.T, reason string, closeReqs bool) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") == "" {
			http.NotFound(w, r) // no NIP-11 document
			return
		}
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		for {
			_, msg, err := c.Read(ctx)
			if err != nil {
				return
			}
			var in []json.RawMessage
			if json.Unmarshal(msg, &in) != nil || len(in) < 2 {
				continue
			}
			var out []any
			switch string(in[0]) {
			case `"REQ"`:
				var sub string
				_ = json.Unmarshal(in[1], &sub)
				out = []any{"EOSE", sub}
				if closeReqs {
					out = []any{"CLOSED", sub, reason}
				}
			case `"EVENT"`:
				var evt struct {
					ID string `json:"id"`
				}
				_ = json.Unmarshal(in[1], &evt)
				out = []any{"OK", evt.ID, false, reason}
			default:
				continue
			}
			b, _ := json.Marshal(out)
			if c.Write(ctx, websocket.MessageText, b) != nil {
				return
			}
		}
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// assertTerminalSafe fails when text, printed on a terminal, could do
// anything but show itself: a control character other than the line feeds
// between lines, a bidi control, invalid UTF-8, or a line that reads as
// roster's own "lead" or "complete" row with the attacker's answer.
func assertTerminalSafe(t *testing.T, what, text string) {
	t.Helper()
	if !utf8.ValidString(text) {
		t.Errorf("%s is not valid UTF-8:\n%q", what, text)
	}
	for _, r := range text {
		if r != '\n' && termtext.Unsafe(r) {
			t.Errorf("%s contains a raw %U:\n%q", what, r, text)
			break
		}
	}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && (f[0] == "lead" && strings.HasPrefix(f[1], "npub1attacker") || f[0] == "complete" && strings.HasPrefix(f[1], "yes")) {
			t.Errorf("%s has a forged line %q:\n%s", what, line, text)
		}
	}
}

func TestRelayAndAnnouncementTextCannotForgeLinesInRepoOutput(t *testing.T) {
	good := devrelay.StartN(t, 1, devrelay.Options{})[0]
	id := "widget"
	clitest.Publish(t, good.URL(), clitest.Alice.Sign(t, 30617, 1000, nostr.Tag{"d", id}, nostr.Tag{"name", hostileName},
		nostr.Tag{"description", hostileDesc}, nostr.Tag{"clone", hostileClone}, nostr.Tag{"web", hostileWeb},
		nostr.Tag{"relays", hostileRelayTag}))
	evil := hostileRelay(t, forgedReason, true)
	inv := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}
	args := []string{"--repo", clitest.Alice.Naddr(id), "--relay", good.URL(), "--relay", evil, "--timeout", "5s"}

	r := inv.Roster(t, append([]string{"repo"}, args...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	assertTerminalSafe(t, "repo stdout", r.Out)
	assertTerminalSafe(t, "repo stderr", r.Err)
	// Escaped, not dropped: the reader sees what the relay and the
	// announcement said.
	for _, want := range []string{`\x1b[2J\x1b[HWidget\r\nlead`, `a tool\u202e\u2066 evil\u2069\ncomplete`, `\u009b2J`,
		`w.git\n  lead npub1attacker`, `https://web.example/\rcomplete yes`, `\x1b]8;;https://evil.example\x07`,
		evil + "  closed, 0 event(s): blocked: no\\n  lead npub1attacker (explicit)\\r\\x1b[2Kcomplete", "complete         no: partial answer"} {
		if !strings.Contains(r.Out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.Out)
		}
	}

	// repo health needs every relay: exit 4, and the error quotes the reason.
	r = inv.Roster(t, append([]string{"repo", "health"}, args...)...)
	if r.Code != cmdutil.ExitIncomplete {
		t.Fatalf("health exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	assertTerminalSafe(t, "health stderr", r.Err)
	if !strings.Contains(r.Err, evil+": closed: blocked: no\\n  lead npub1attacker (explicit)\\r\\x1b[2Kcomplete") ||
		!strings.Contains(r.Err, "nothing was decided:\n  "+evil) || !strings.Contains(r.Err, "\n  run: roster repo") {
		t.Fatalf("health stderr does not keep roster's layout around the escaped reason:\n%s", r.Err)
	}

	// JSON carries the relay's text exactly.
	r = inv.Roster(t, append([]string{"repo", "health", "--json"}, args...)...)
	e := clitest.ErrorBody(t, r)
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(e.Message, evil+": closed: "+forgedReason) {
		t.Fatalf("exit %d, JSON message %q", r.Code, e.Message)
	}
	var reasons []string
	for _, rel := range e.Details["relays"].([]any) {
		reasons = append(reasons, rel.(map[string]any)["reason"].(string))
	}
	if !strings.Contains(strings.Join(reasons, "|"), forgedReason) {
		t.Fatalf("details.relays reasons %q lack the exact reason", reasons)
	}
}

func TestRelayOKMessageCannotForgeLinesAfterAPublish(t *testing.T) {
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	evil := hostileRelay(t, forgedReason, false)
	run := func(extra ...string) clitest.Result {
		full := append([]string{"--repo", clitest.Alice.Naddr(w.Id), "--timeout", "5s", "--home", w.Home["ROSTER_HOME"],
			"--relay", w.Relays[0].URL(), "--relay", evil}, extra...)
		return clitest.Invocation{Env: clitest.WithKey(w.Home, clitest.Alice), Dir: w.Dir, Now: time.Unix(1000, 0)}.Roster(t, full...)
	}
	// The relay that refuses the event leaves the publish unverified (exit 6).
	r := run("repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	if r.Code != cmdutil.ExitUnverified {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	assertTerminalSafe(t, "edit stdout", r.Out)
	assertTerminalSafe(t, "edit stderr", r.Err)
	if !strings.Contains(r.Err, "verification did not complete:\n  "+evil+" did not accept it: blocked: no\\n  lead npub1attacker") ||
		!strings.Contains(r.Err, "\nit is in effect where it was stored") {
		t.Fatalf("stderr does not keep roster's layout around the escaped message:\n%s", r.Err)
	}

	r = run("--json", "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	var out struct {
		Error struct {
			Message string         `json:"message"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.Out), &out); err != nil || r.Code != cmdutil.ExitUnverified {
		t.Fatalf("exit %d (%v)\n%s", r.Code, err, r.Out)
	}
	if !strings.Contains(out.Error.Message, evil+" did not accept it: "+forgedReason) {
		t.Fatalf("JSON message %q lacks the exact relay message", out.Error.Message)
	}
}

func TestRelayOKMessageCannotForgeLinesInRepoInit(t *testing.T) {
	good := devrelay.StartN(t, 1, devrelay.Options{})[0]
	evil := hostileRelay(t, forgedReason, false)
	dir, _ := clitest.InitTestCheckout(t, "widget")
	env := clitest.WithKey(clitest.TestEnv(t), clitest.Alice)
	r := clitest.Invocation{Env: env, Dir: dir}.Roster(t, "repo", "init", "--relay", good.URL(), "--relay", evil, "--timeout", "5s")
	if r.Code != cmdutil.ExitUnverified {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	assertTerminalSafe(t, "init stdout", r.Out)
	assertTerminalSafe(t, "init stderr", r.Err)
	if !strings.Contains(r.Out, "refused: blocked: no\\n  lead npub1attacker") {
		t.Fatalf("stdout lacks the escaped refusal:\n%s", r.Out)
	}
}

func TestRelayAndEventTextCannotForgeLinesInProjectAndGroupOutput(t *testing.T) {
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"description", hostileDesc})
	// The identity's name is the pcWorld default; a hostile one replaces it.
	w.MustPublish(clitest.PcOwnerSK, &nostr.Event{Kind: 30621, CreatedAt: nostr.Now() - 5,
		Tags: nostr.Tags{{"d", w.Coord.D}, {"name", hostileName}, {"description", hostileDesc}}})
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", hostileName}, nostr.Tag{"about", hostileDesc})
	evil := hostileRelay(t, forgedReason, true)
	as := func(args ...string) clitest.Result {
		env := map[string]string{"ROSTER_SECRET_KEY": clitest.PcOwnerSK, "ROSTER_HOME": t.TempDir()}
		return clitest.Invocation{Env: env}.Roster(t, append(args, "--relay", w.Relay.URL(), "--relay", evil, "--timeout", "5s")...)
	}

	r := as("project", "show", w.Coord.String())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("project show exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	assertTerminalSafe(t, "project stdout", r.Out)
	assertTerminalSafe(t, "project stderr", r.Err)
	if !strings.Contains(r.Out, `\x1b[2J\x1b[HWidget\r\nlead`) || !strings.Contains(r.Out, `closed: blocked: no\n  lead npub1attacker`) {
		t.Fatalf("project stdout lacks the escaped texts:\n%s", r.Out)
	}
	p := clitest.DecodeOut[report.Project](t, as("project", "show", w.Coord.String(), "--json"))
	if p.Name != hostileName || p.Description != hostileDesc {
		t.Fatalf("JSON name %q description %q, want the originals", p.Name, p.Description)
	}
	var reasons []string
	for _, rr := range p.Relays {
		reasons = append(reasons, rr.Reason)
	}
	if !strings.Contains(strings.Join(reasons, "|"), forgedReason) {
		t.Fatalf("JSON relay reasons %q lack the exact reason", reasons)
	}

	r = as("group", "show", clitest.PcHome)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("group show exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	assertTerminalSafe(t, "group stdout", r.Out)
	if !strings.Contains(r.Out, `name     \x1b[2J\x1b[HWidget\r\nlead`) || !strings.Contains(r.Out, `closed: blocked: no\n  lead npub1attacker`) {
		t.Fatalf("group stdout lacks the escaped texts:\n%s", r.Out)
	}
	g := clitest.DecodeOut[report.Group](t, as("group", "show", clitest.PcHome, "--json"))
	if m := g.Relays[0].Group.Metadata; m == nil || m.Name != hostileName || m.About != hostileDesc || g.Relays[1].Reason != forgedReason {
		t.Fatalf("JSON group %+v", g.Relays)
	}

	// A project no answering relay holds: the outage error lists the
	// hostile relay's reason on its own escaped line.
	r = as("project", "show", "30621:"+strings.Repeat("ab", 32)+":nothing")
	if r.Code != cmdutil.ExitIncomplete {
		t.Fatalf("exit %d\n%s", r.Code, r.Err)
	}
	assertTerminalSafe(t, "project outage stderr", r.Err)
	if !strings.Contains(r.Err, "nothing is known for sure:\n  "+evil+": closed: blocked: no\\n  lead npub1attacker") {
		t.Fatalf("outage stderr:\n%s", r.Err)
	}
}

func TestBunkerRelayReasonCannotForgeLinesInLoginErrors(t *testing.T) {
	clitest.SignerTestKeyring(t)
	evil := hostileRelay(t, forgedReason, true)
	bunker := "bunker://" + clitest.NewTestKey(t).Pubkey + "?relay=" + evil + "&secret=s"
	env := clitest.HomeEnv(t)
	r := clitest.Invocation{Env: env}.Roster(t, "login", "--bunker", bunker)
	if r.Code != cmdutil.ExitFailure {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	assertTerminalSafe(t, "login stderr", r.Err)
	if !strings.Contains(r.Err, `closed: blocked: no\n  lead npub1attacker`) || strings.Count(strings.TrimSpace(r.Err), "\n") != strings.Count(r.Err, "  run: ") {
		t.Fatalf("stderr is not one message line plus its run: lines:\n%s", r.Err)
	}
	r = clitest.Invocation{Env: env}.Roster(t, "login", "--bunker", bunker, "--json")
	if e := clitest.ErrorBody(t, r); !strings.Contains(e.Message, "closed: "+forgedReason) {
		t.Fatalf("JSON message %q lacks the bunker relay's exact reason", e.Message)
	}
}

// The floor under every error message: without a Terminal form the message
// keeps roster's line breaks and tabs and loses every other control.
func TestHumanErrorMessageEscapesControlsAndKeepsRostersLayout(t *testing.T) {
	raw := "two lines:\n  first\tok\r\x1b[2Ksecond \u202eevil"
	ee := &cmdutil.ExitError{Err: errors.New(raw)}
	if got, want := cmdutil.HumanMessage(ee), "two lines:\n  first\tok\\r\\x1b[2Ksecond \\u202eevil"; got != want {
		t.Fatalf("humanMessage = %q, want %q", got, want)
	}
	if got, want := cmdutil.HumanMessage(ee.OneLine()), `two lines:\n  first\tok\r\x1b[2Ksecond \u202eevil`; got != want {
		t.Fatalf("one-line humanMessage = %q, want %q", got, want)
	}
	if ee.Err.Error() != raw {
		t.Fatal("the message JSON carries changed")
	}
}

func TestWorkspaceRenderEscapesSectionText(t *testing.T) {
	var out strings.Builder
	icon := "\x1b[5m"
	a := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: &out}}
	workspace.RenderWorkspace(a, report.Workspace{Community: "wss://c.example", Stale: true, StaleReason: "closed: " + forgedReason,
		Sections: []report.WorkspaceSection{{ID: "s1", Label: hostileName, Icon: &icon, Channels: []string{hostileClone}}},
		Rejected: []string{forgedReason}})
	assertTerminalSafe(t, "workspace stdout", out.String())
	if !strings.Contains(out.String(), `1. \x1b[2J\x1b[HWidget\r\nlead`) || !strings.Contains(out.String(), `[\x1b[5m]`) {
		t.Fatalf("workspace stdout:\n%s", out.String())
	}
}
