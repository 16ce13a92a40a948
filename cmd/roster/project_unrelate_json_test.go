package main

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/report"
)

// Rule (every project command has --json): `project unrelate --json` prints
// roster.project.change/v2 with the removal, the revision it was checked
// against, the new revision and the related channels read back.
func TestProjectUnrelatePrintsJSON(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now()-10, nostr.Tag{"buzz-related-channel", pcChanA}, nostr.Tag{"buzz-related-channel", pcChanB})
	out := decodeOut[report.ProjectChange](t, w.as(pcOwnerSK, "project", "unrelate", w.coord.String(), pcChanA, "--json"))
	if out.Schema != "roster.project.change/v2" || out.Coordinate != w.coord.String() || len(out.Add) != 0 ||
		len(out.Remove) != 1 || out.Remove[0] != pcChanA || out.ExpectedRevision != 1 || out.Revision != 2 ||
		len(out.RelatedChannels) != 1 || out.RelatedChannels[0] != pcChanB || len(out.Published) != 1 || out.Retried {
		t.Fatalf("unrelate --json: %+v", out)
	}
	if st := w.stored(); st.Revision != 2 || st.Document.Related(pcChanA) {
		t.Fatalf("relay holds %+v", st)
	}
}
