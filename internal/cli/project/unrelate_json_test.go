package project_test

import (
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/report"
)

// Rule (every project command has --json): `project unrelate --json` prints
// roster.project.change/v2 with the removal, the revision it was checked
// against, the new revision and the related channels read back.
func TestProjectUnrelatePrintsJSON(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-related-channel", clitest.PcChanA}, nostr.Tag{"buzz-related-channel", clitest.PcChanB})
	out := clitest.DecodeOut[report.ProjectChange](t, w.As(clitest.PcOwnerSK, "project", "unrelate", w.Coord.String(), clitest.PcChanA, "--json"))
	if out.Schema != "roster.project.change/v2" || out.Coordinate != w.Coord.String() || len(out.Add) != 0 ||
		len(out.Remove) != 1 || out.Remove[0] != clitest.PcChanA || out.ExpectedRevision != 1 || out.Revision != 2 ||
		len(out.RelatedChannels) != 1 || out.RelatedChannels[0] != clitest.PcChanB || len(out.Published) != 1 || out.Retried {
		t.Fatalf("unrelate --json: %+v", out)
	}
	if st := w.Stored(); st.Revision != 2 || st.Document.Related(clitest.PcChanA) {
		t.Fatalf("relay holds %+v", st)
	}
}
