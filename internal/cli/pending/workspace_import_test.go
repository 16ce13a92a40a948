package pending_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/swrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
)

// Rule (NIP-SW commands resume as exact retries): a workspace import whose
// answer was lost is listed by `roster pending` with its relay, and
// `roster pending resume` sends the very same signed import again, as
// `roster workspace import` does, and forgets it once its marker reads
// back.
func TestAKeptWorkspaceImportIsListedAndResumedAsAnExactRetry(t *testing.T) {
	t.Parallel()
	l := &clitest.AnswerLoser{Authority: swrelay.New(swrelay.Options{})}
	w := clitest.NewSWWorldWith(t, l)
	w.PublishLegacy()
	kept := clitest.FirstImportTimesOut(t, w)
	home := w.Homes[clitest.SwOwnerSK]
	env := map[string]string{"ROSTER_SECRET_KEY": clitest.SwOwnerSK, "ROSTER_HOME": home}
	r := clitest.Invocation{Env: env}.Roster(t, "pending", "--json", "--timeout", "5s")
	var p clitest.PendingJSON
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &p) != nil || len(p.Writes) != 1 ||
		strings.Join(p.Writes[0].Command, " ") != "roster workspace import --relay "+w.Relay.URL() {
		t.Fatalf("roster pending: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	r = clitest.Invocation{Env: env, Seams: cmdutil.Seams{Http: w.Http}}.Roster(t, "pending", "resume", p.Writes[0].ID[:12], "--json", "--timeout", "5s")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("resume: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	out := clitest.DecodeOut[report.WorkspaceImport](t, r)
	sent := l.Imports()
	var first nostr.Event
	_ = first.UnmarshalJSON([]byte(sent[0]))
	if len(sent) != 2 || sent[0] != sent[1] || !out.Switched || !out.Replayed || out.EventID != first.ID || out.EventID != p.Writes[0].ID {
		t.Fatalf("resume sent %d imports (same bytes: %v), result %+v", len(sent), len(sent) == 2 && sent[0] == sent[1], out)
	}
	if _, err := os.Stat(kept); !os.IsNotExist(err) {
		t.Fatalf("the kept import outlived its marker: %v", err)
	}
}
