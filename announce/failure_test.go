package announce

import (
	"context"
	"os/exec"
	"testing"

	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/gitstate"
)

// Rule (one failure type): what stops an announcement is a
// failure.Failure, with the class the command turns into its exit code:
// a checkout without commits and an announcement with nowhere to go are
// usage (exit 2), each with its code and the command to run next.
func TestWhatStopsAnAnnouncementIsTheOneFailureType(t *testing.T) {
	empty := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", empty).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	co, err := gitstate.Open(empty)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Pipeline{Checkout: co}.Run(context.Background(), Request{Identifier: "widgets"})
	f := failure.Of(err)
	if f == nil || f.Class != failure.Usage || f.Code != KindNoCommits || len(f.Next) == 0 || f.Error() != err.Error() {
		t.Fatalf("no commits: %#v (%v), want a usage failure no-commits with the next commands", f, err)
	}
	_, err = Pipeline{Checkout: committedCheckout(t)}.Run(context.Background(), Request{Identifier: "widgets"})
	if f = failure.Of(err); f == nil || f.Class != failure.Usage || f.Code != KindNoRelays || len(f.Next) != 1 {
		t.Fatalf("no relays: %#v (%v), want a usage failure no-relays", f, err)
	}
}

// committedCheckout is a fresh checkout with one (empty) commit.
func committedCheckout(t *testing.T) *gitstate.Checkout {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "one"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	co, err := gitstate.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return co
}
