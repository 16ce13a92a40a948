package project_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (NIP-PC expected revision: on a `conflict:` reply, re-read the
// projection, re-check, and retry once): the re-check is real. Another change relates the same
// channel first, so after the conflict the re-read shows it already
// related and roster refuses before signing a second time instead of
// retrying blindly.
func TestProjectRetryAfterConflictRechecksThePatch(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	w.BeforeSign = func(attempt int) {
		if attempt != 0 {
			t.Errorf("roster reached signing again (attempt %d) after the re-check should have refused", attempt)
			return
		}
		w.RelateFirst(clitest.PcChanA, nostr.Now()-5) // not byte-identical to roster's own
	}
	r := w.As(clitest.PcOwnerSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--json")
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if r.Code != cmdutil.ExitRefused || e.Error.Code != "already-related" || !strings.Contains(e.Error.Message, "nothing was published") {
		t.Fatalf("exit %d %+v\n%s\n%s", r.Code, e.Error, r.Out, r.Err)
	}
	if st := w.Stored(); st.Revision != 2 || w.StoredCommands() != 1 {
		t.Fatalf("relay holds revision %d with %d commands, want the concurrent change only", st.Revision, w.StoredCommands())
	}
}
