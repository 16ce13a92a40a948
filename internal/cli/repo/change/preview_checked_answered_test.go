package change_test

import (
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// deadEvidenceRelay is a relay URL nothing listens at, listed by Dave's
// unrelated announcement of the same identifier: a write asks it as
// evidence only, and it never answers.
const deadEvidenceRelay = "ws://127.0.0.1:1/daves-relay"

// checkedLines are the preview's "checked: ..." and "not checked: ..."
// lines.
func checkedLines(t *testing.T, out string) (checked, notChecked string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "checked: "):
			checked = l
		case strings.HasPrefix(l, "not checked: "):
			notChecked = l
		}
	}
	if checked == "" {
		t.Fatalf("no checked: line in\n%s", out)
	}
	return checked, notChecked
}

// Rule (the preview says what the evidence covered): the relays the
// `checked:` line counts are the relays that answered. An evidence-only
// relay that did not answer is not counted there; it is named where the
// preview says what was not checked.
func TestAChangesCheckedLineCountsOnlyRelaysThatAnswered(t *testing.T) {
	t.Parallel()
	s := clitest.NewWriteRelayScene(t, 0)
	clitest.Publish(t, s.Home.URL(), clitest.Alice.Announce(t, s.Id, 100),
		clitest.Dave.Announce(t, s.Id, 200, clitest.Role("M", clitest.Dave), nostr.Tag{"relays", deadEvidenceRelay}))
	r := s.Run(clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--dry-run")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d, want 0\n%s%s", r.Code, r.Out, r.Err)
	}
	checked, notChecked := checkedLines(t, r.Out)
	if !strings.HasPrefix(checked, "checked: 1 relay, ") {
		t.Errorf("%q counts the relay that did not answer; want 1 relay (the one that answered)", checked)
	}
	if !strings.Contains(notChecked, deadEvidenceRelay) {
		t.Errorf("not checked line %q does not name the relay that did not answer\n%s", notChecked, r.Out)
	}
}

// Rule (the same for `repo state publish`): its `checked:` line counts
// the relays that answered and names the one that did not.
func TestAStatePublishCheckedLineCountsOnlyRelaysThatAnswered(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	s.Clone.Commit("alice's next")
	s.Clone.Git("push", "-q", s.CloneURL, "main")
	s.W.Seed(clitest.Dave.Announce(t, s.W.Id, 150, clitest.Role("M", clitest.Dave), nostr.Tag{"relays", deadEvidenceRelay}))
	// The relays from ROSTER_RELAYS, not --relay: given relays are asked
	// alone, and the evidence-only relay would not be asked at all.
	env := clitest.WithKey(s.W.Home, clitest.Alice)
	env["ROSTER_RELAYS"] = s.W.Relays[0].URL()
	r := clitest.Invocation{Env: env, Dir: s.W.Dir, Now: time.Unix(1000, 0)}.Roster(t,
		"--repo", clitest.Alice.Naddr(s.W.Id), "--timeout", "5s", "repo", "state", "publish", "--dry-run")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d, want 0\n%s%s", r.Code, r.Out, r.Err)
	}
	checked, notChecked := checkedLines(t, r.Out)
	if !strings.HasPrefix(checked, "checked: 1 relay, ") {
		t.Errorf("%q counts the relay that did not answer; want 1 relay (the one that answered)", checked)
	}
	if !strings.Contains(notChecked, deadEvidenceRelay) {
		t.Errorf("not checked line %q does not name the relay that did not answer\n%s", notChecked, r.Out)
	}
}
