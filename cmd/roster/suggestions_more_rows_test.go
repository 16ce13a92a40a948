package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// More rows of TestEveryPrintedCommandMovesForward, each provoking one
// suggestion site of suggestionSites.
func init() { suggestionRows = append(suggestionRows, moreSuggestionRows...) }

var moreSuggestionRows = []suggestionRow{
	{"check-event of an event no relay asked holds: a relay holding it", func(t *testing.T) {
		s := newSuggestScene(t)
		holder := devrelay.StartN(t, 1, devrelay.Options{})[0]
		st := clitest.Alice.State(t, s.id, 200, strings.Repeat("a", 40))
		clitest.Publish(t, holder.URL(), clitest.Alice.Announce(t, s.id, 100))
		clitest.Publish(t, holder.URL(), st)
		r := s.roster(t, s.alice, "repo", "check-event", st.ID, "--repo", s.naddr, "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitIncomplete, "incomplete")
		c := clitest.CommandStarting(t, e.Commands, "roster repo check-event "+st.ID)
		s.fill["wss://<relay holding it>"] = holder.URL()
		s.wantFurther(t, r, s.alice, c)
	}},
	{"check-event of repository state without --repo: the --repo it needs", func(t *testing.T) {
		s := newSuggestScene(t)
		st := clitest.Alice.State(t, s.id, 200, strings.Repeat("a", 40))
		clitest.Publish(t, s.relay.URL(), st)
		r := s.roster(t, s.alice, "repo", "check-event", st.ID, "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "no-coordinate")
		c := clitest.CommandStarting(t, e.Commands, "roster repo check-event "+st.ID)
		s.fill["<naddr|nostr://npub/identifier>"] = s.naddr
		s.wantFurther(t, r, s.alice, c)
	}},
	{"check-event --offline: the same, asking the relays", func(t *testing.T) {
		s := newSuggestScene(t)
		st := clitest.Alice.State(t, s.id, 200, strings.Repeat("a", 40))
		clitest.Publish(t, s.relay.URL(), st)
		hinted := gitstate.EncodeNaddr(clitest.Alice.Coord(s.id), []string{s.relay.URL()})
		r := s.roster(t, s.alice, "repo", "check-event", st.ID, "--repo", hinted, "--offline", "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "usage")
		c := clitest.CommandStarting(t, e.Commands, "roster repo check-event "+st.ID)
		if strings.Contains(c, "--offline") {
			t.Fatalf("the suggestion keeps --offline: %q", c)
		}
		s.wantFurther(t, r, s.alice, c)
	}},
	{"project show with no relay to ask: --relay", func(t *testing.T) {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now() - 10)
		env := map[string]string{"ROSTER_HOME": t.TempDir()}
		r := clitest.Invocation{Env: env}.Roster(t, "project", "show", w.Coord.String(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "no-relays")
		c := clitest.CommandStarting(t, e.Commands, "roster project show")
		line := strings.ReplaceAll(c, "wss://<relay>", w.Relay.URL())
		if got := (clitest.Invocation{Env: env}).Roster(t, append(clitest.ShellWords(t, line)[1:], "--json")...); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", line, got.Code, got.Out, got.Err)
		}
	}},
	{"an invalid --jq: the formatting help", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "repo", "--repo", s.naddr, "--relay", s.relay.URL(), "--jq", ".[")
		var e clitest.ErrorOut
		if err := json.Unmarshal([]byte(r.Err), &e); err != nil || r.Code != cmdutil.ExitUsage || len(e.Error.Commands) == 0 {
			t.Fatalf("exit %d %v\n%s%s", r.Code, err, r.Out, r.Err)
		}
		for _, c := range e.Error.Commands {
			got := s.roster(t, s.alice, clitest.ShellWords(t, c)[1:]...)
			if got.Code != cmdutil.ExitOK || !strings.Contains(got.Out, "--jq") {
				t.Errorf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
			}
		}
	}},
	{"an unknown help topic: the topic meant", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "help", "formating")
		if r.Code != cmdutil.ExitUsage {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
		pasted := 0
		for _, l := range strings.Split(r.Out+r.Err, "\n") {
			l = strings.TrimPrefix(strings.TrimSpace(l), "run: ")
			if !strings.HasPrefix(l, "roster help") {
				continue
			}
			pasted++
			if got := s.roster(t, s.alice, clitest.ShellWords(t, l)[1:]...); got.Code != cmdutil.ExitOK {
				t.Errorf("%q: exit %d\n%s%s", l, got.Code, got.Out, got.Err)
			}
		}
		if pasted < 2 || !strings.Contains(r.Out+r.Err, "roster help formatting") {
			t.Fatalf("no roster help formatting suggested:\n%s%s", r.Out, r.Err)
		}
	}},
	{"pending resume or discard of an unknown id: the list", func(t *testing.T) {
		s := newSuggestScene(t)
		for _, verb := range []string{"resume", "discard"} {
			r := s.roster(t, s.alice, "pending", verb, "abcdef", "--json")
			e := wantError(t, r, cmdutil.ExitUsage, "pending-not-found")
			if got := s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster pending")); got.Code != cmdutil.ExitOK {
				t.Fatalf("%s: exit %d\n%s%s", verb, got.Code, got.Out, got.Err)
			}
		}
	}},
	{"a --repo remote name outside a checkout: the nostr:// URL or the naddr", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "repo", "--repo", "origin", "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "usage")
		s.fill["nostr://<npub>/<identifier>"] = gitstate.NostrURL(clitest.Alice.Coord(s.id), nil)
		s.fill["naddr1..."] = s.naddr
		for _, c := range []string{clitest.CommandStarting(t, e.Commands, "roster repo --repo nostr://"), clitest.CommandStarting(t, e.Commands, "roster repo --repo naddr1")} {
			if got := s.wantFurther(t, r, s.alice, c); got.Code != cmdutil.ExitOK {
				t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
			}
		}
	}},
	{"removing a maintainer one does not list: who maintains it", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "repo", "edit", "--remove-maintainer", clitest.Bob.Npub(), "--repo", s.naddr, "--relay", s.relay.URL(), "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "not-listed")
		if got := s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster repo --repo")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
		if n := len(s.relay.Stored(nostr.Filter{Kinds: []int{30617}})); n != 1 {
			t.Fatalf("the refused edit left %d announcements", n)
		}
	}},
	{"group show with no relay to ask: --relay", func(t *testing.T) {
		s := newSuggestScene(t)
		r := s.roster(t, s.alice, "group", "show", "abc", "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "no-relays")
		s.wantFurther(t, r, s.alice, clitest.CommandStarting(t, e.Commands, "roster group show abc"))
	}},
	{"workspace create over a workspace already there: show it", func(t *testing.T) {
		w := clitest.NewSWWorld(t)
		w.MustAs(clitest.SwOwnerSK, "workspace", "create")
		r := w.As(clitest.SwOwnerSK, "workspace", "create", "--json")
		e := wantError(t, r, cmdutil.ExitRefused, "already-imported")
		c := clitest.CommandStarting(t, e.Commands, "roster workspace show")
		if got := pasteWorkspace(t, w, clitest.SwOwnerSK, c); got.Code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
		}
	}},
}
