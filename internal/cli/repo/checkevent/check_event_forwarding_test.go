package checkevent_test

import (
	"encoding/json"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (check-event resolves the repository an event names, following its
// lead pointer): a status inside Bob's tenure whose `a` tag names Bob's own
// coordinate, which forwards to Alice's, is judged in the lead's
// resolution: authorized, as with --repo of the lead; the interval starts
// at his effective start (his acceptance), not at the invitation.
func TestCheckEventOfAForwardingCoordinateJudgesInTheLeadsResolution(t *testing.T) {
	t.Parallel()
	w, issue := clitest.CheckEventWorld(t)
	w.Ok(clitest.Bob, clitest.Alice, 5000, "repo", "leave")
	w.Ok(clitest.Alice, clitest.Alice, 5100, "repo", "edit", "--acknowledge-maintainer-change", clitest.Bob.Npub())
	own := nostr.Tag{"a", "30617:" + clitest.Bob.Pk + ":" + w.Id}
	root := nostr.Tag{"e", issue.ID, "", "root"}
	st := clitest.Bob.Sign(t, 1631, 2500, own, root)
	w.Seed(st)
	for _, args := range [][]string{{st.ID, "--json"}, {st.ID, "--json", "--repo", clitest.Alice.Naddr(w.Id)}} {
		r := w.CheckEvent(args...)
		var doc struct {
			Authorized bool `json:"authorized"`
			Interval   *struct {
				Start int64 `json:"start"`
			} `json:"interval"`
		}
		if err := json.Unmarshal([]byte(r.Out), &doc); err != nil || r.Code != cmdutil.ExitOK || !doc.Authorized {
			t.Fatalf("%v: exit %d:\n%s%s", args, r.Code, r.Out, r.Err)
		}
		if doc.Interval == nil || doc.Interval.Start != 2000 {
			t.Fatalf("%v: interval %+v, want the effective start 2000:\n%s", args, doc.Interval, r.Out)
		}
	}
}
