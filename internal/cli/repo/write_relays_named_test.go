package repo_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (a named person's unreachable relay stays incomplete evidence, and
// the refusal names the person, the relay and the bound): Alice invited
// Bob, and Bob's announcement lists one relay that nothing listens at.
// Alice's next change exits 4 within its rounds, naming the dead relay and
// that Bob's announcement listed it, and publishes nothing.
func TestAnInviteesDeadRelayIsANamedIncompleteRefusal(t *testing.T) {
	t.Parallel()
	s := clitest.NewWriteRelayScene(t, 0)
	dead := "ws://127.0.0.1:1/bobs-relay"
	clitest.Publish(t, s.Home.URL(), clitest.Alice.Announce(t, s.Id, 100, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "100"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Bob.Announce(t, s.Id, 200, clitest.Role("M", clitest.Alice, "100"), clitest.Role("m", clitest.Bob, "100"), nostr.Tag{"relays", dead}))
	start := time.Now()
	e := s.RefusedJSON(clitest.Alice, 1000, cmdutil.ExitIncomplete, "incomplete", "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("took %v", took)
	}
	msg := e["message"].(string)
	if !strings.Contains(msg, dead) || !strings.Contains(msg, "listed by "+clitest.Bob.Npub()+"'s announcement") || !strings.Contains(msg, "at most 32") {
		t.Fatalf("message does not name the relay, Bob and the bound:\n%s", msg)
	}
	var listed bool
	for _, r := range e["details"].(map[string]any)["relays"].([]any) {
		r := r.(map[string]any)
		if by, ok := r["listed_by"].(map[string]any); ok && r["url"] == dead && by["npub"] == clitest.Bob.Npub() && by["from"] == "announcement" {
			listed = true
		}
	}
	if !listed {
		t.Fatalf("details.relays do not say who listed %s: %v", dead, e["details"])
	}
}

// Rule (an exceeded bound names whose list exceeds it): Bob, a maintainer
// Alice is removing, publishes a kind 10002 naming 40 write relays. The
// removal exits 4 relay-bound, the message naming Bob's NIP-65 relay list
// and the 32-relay bound, details.wanted_from each relay's source; nothing
// is published and none of the 40 is asked.
func TestARelayListOverTheBoundIsANamedRefusal(t *testing.T) {
	t.Parallel()
	s := clitest.NewWriteRelayScene(t, 1)
	sink := s.Others[0]
	list := &nostr.Event{Kind: 10002, CreatedAt: 300}
	for i := range 40 {
		list.Tags = append(list.Tags, nostr.Tag{"r", fmt.Sprintf("%s/w%02d", sink.URL(), i)})
	}
	if err := list.Sign(clitest.Bob.Sk); err != nil {
		t.Fatal(err)
	}
	clitest.Publish(t, s.Home.URL(), clitest.Alice.Announce(t, s.Id, 100, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "100"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Bob.Announce(t, s.Id, 200, clitest.Role("M", clitest.Alice, "100"), clitest.Role("m", clitest.Bob, "100"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)), list)
	e := s.RefusedJSON(clitest.Alice, 1000, cmdutil.ExitIncomplete, "relay-bound", "repo", "edit", "--remove-maintainer", clitest.Bob.Npub())
	if n := sink.ReqCount(); n != 0 {
		t.Fatalf("the relays past the bound got %d REQs", n)
	}
	msg := e["message"].(string)
	if !strings.Contains(msg, "listed by "+clitest.Bob.Npub()+"'s NIP-65 relay list") || !strings.Contains(msg, "more than 32 relays") {
		t.Fatalf("message does not name Bob's relay list and the bound:\n%s", msg)
	}
	from := e["details"].(map[string]any)["wanted_from"].([]any)
	if len(from) == 0 || from[0].(map[string]any)["npub"] != clitest.Bob.Npub() || from[0].(map[string]any)["from"] != "relay-list" {
		t.Fatalf("details.wanted_from %v", from)
	}
}
