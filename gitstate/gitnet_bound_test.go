package gitstate

import (
	"context"
	"errors"
	"testing"
)

// Rule (a bound on what a server sends fails closed): git may exit 0 in
// the moment between roster noticing a bound passed and the kill landing.
// The run still fails with the bound, never as a success with its output
// cut short. `git --version` writes past a 4-byte stdout bound and exits
// at once, so git nearly always wins that race here.
func TestABoundPassedAsGitExitsStillFailsTheRun(t *testing.T) {
	for i := 0; i < 20; i++ {
		r := runNet(context.Background(), t.TempDir(), "file:///nowhere", 0, 4, "--version")
		var tooMuch errTooMuchData
		if !errors.As(r.err, &tooMuch) {
			t.Fatalf("run %d: err %v, stdout %q; want the 4-byte bound's error", i, r.err, r.stdout)
		}
	}
}
