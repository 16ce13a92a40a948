package main

import (
	"strings"
	"testing"
	"time"

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
	s := newWriteRelayScene(t, 0)
	publish(t, s.home.URL(), alice.announce(t, s.id, 100),
		dave.announce(t, s.id, 200, role("M", dave), nostr.Tag{"relays", deadEvidenceRelay}))
	r := s.run(alice, 1000, "repo", "edit", "--add-maintainer", carol.npub(), "--dry-run")
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
	s := newStateScene(t)
	s.clone.commit("alice's next")
	s.clone.git("push", "-q", s.cloneURL, "main")
	s.w.seed(dave.announce(t, s.w.id, 150, role("M", dave), nostr.Tag{"relays", deadEvidenceRelay}))
	// The relays from ROSTER_RELAYS, not --relay: given relays are asked
	// alone, and the evidence-only relay would not be asked at all.
	env := withKey(s.w.home, alice)
	env["ROSTER_RELAYS"] = s.w.relays[0].URL()
	r := invocation{Env: env, Dir: s.w.dir, Now: time.Unix(1000, 0)}.roster(t,
		"--repo", alice.naddr(s.w.id), "--timeout", "5s", "repo", "state", "publish", "--dry-run")
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
