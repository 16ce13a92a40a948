package main

import (
	"os"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/swrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/sections"
)

// waitStored waits, with a deadline, until the relay stores n projections of
// the owner's workspace.
func waitStored(t *testing.T, w *clitest.SwWorld, n int) {
	t.Helper()
	f := nostr.Filter{Kinds: []int{sections.KindProjection}, Tags: nostr.TagMap{"d": {clitest.PubOf(t, clitest.SwOwnerSK)}}}
	for deadline := time.Now().Add(10 * time.Second); len(w.Relay.Stored(f)) != n; {
		if time.Now().After(deadline) {
			t.Fatalf("the relay stores %d projections, want %d", len(w.Relay.Stored(f)), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The import's answer is lost on its way in: the retry sends the very same
// signed event (same id, signature, action id, key envelope and
// ciphertexts), the relay applies it once, and the kept copy is dropped once
// its marker reads back.
func TestWorkspaceImportRetryReplaysTheExactSignedCommand(t *testing.T) {
	t.Parallel()
	l := &clitest.AnswerLoser{Authority: swrelay.New(swrelay.Options{})}
	w := clitest.NewSWWorldWith(t, l)
	legacy := w.PublishLegacy()
	kept := clitest.FirstImportTimesOut(t, w)
	// The kept import is not in the cache: clearing it changes nothing.
	if r := (clitest.Invocation{Env: map[string]string{"ROSTER_HOME": w.Homes[clitest.SwOwnerSK]}}).Roster(t, "cache", "clear"); r.Code != cmdutil.ExitOK {
		t.Fatalf("cache clear: exit %d %s", r.Code, r.Err)
	}

	out := clitest.DecodeOut[report.WorkspaceImport](t, w.MustAs(clitest.SwOwnerSK, "workspace", "import", "--json"))
	sent := l.Imports()
	if len(sent) != 2 || sent[0] != sent[1] {
		t.Fatalf("the retry did not send the first attempt's bytes:\n%v", sent)
	}
	var first nostr.Event
	_ = first.UnmarshalJSON([]byte(sent[0]))
	if !out.Switched || !out.Resumed || !out.Replayed || out.EventID != first.ID || out.SourceEventID != legacy.ID || out.Workspace.Revision != 1 {
		t.Fatalf("retry result %+v", out)
	}
	if st := w.Stored(); st.Revision != 1 || st.Migration == nil || st.Migration.SourceEventID != legacy.ID {
		t.Fatalf("relay state %+v", st)
	}
	if _, err := os.Stat(kept); !os.IsNotExist(err) {
		t.Fatalf("the kept import outlived its marker: %v", err)
	}
	// Done: another run is the ordinary second import, refused.
	if r := w.As(clitest.SwOwnerSK, "workspace", "import"); r.Code != cmdutil.ExitRefused {
		t.Fatalf("import after the marker: exit %d %s", r.Code, r.Err)
	}
}

// The relay applied the import but its OK was lost (the client timed out):
// the retry finds the kept import's marker already there and finishes
// without minting anything; the relay holds one import.
func TestWorkspaceImportRetryAfterLostOKFinishesWithoutASecondImport(t *testing.T) {
	t.Parallel()
	l := &clitest.AnswerLoser{Authority: swrelay.New(swrelay.Options{}), Commit: true}
	w := clitest.NewSWWorldWith(t, l)
	w.PublishLegacy()
	kept := clitest.FirstImportTimesOut(t, w)
	waitStored(t, w, 1)

	events := w.Relay.EventCount()
	out := clitest.DecodeOut[report.WorkspaceImport](t, w.MustAs(clitest.SwOwnerSK, "workspace", "import", "--json"))
	var first nostr.Event
	_ = first.UnmarshalJSON([]byte(l.Imports()[0]))
	if !out.Switched || !out.Resumed || out.Replayed || out.EventID != first.ID || out.ActionID != first.Tags.GetFirst([]string{"action", ""}).Value() {
		t.Fatalf("retry result %+v", out)
	}
	if len(l.Imports()) != 1 || w.Relay.EventCount() != events {
		t.Fatalf("the retry sent %d imports (%d events)", len(l.Imports()), w.Relay.EventCount()-events)
	}
	if st := w.Stored(); st.Revision != 1 {
		t.Fatalf("relay state revision %d", st.Revision)
	}
	if _, err := os.Stat(kept); !os.IsNotExist(err) {
		t.Fatalf("the kept import outlived its marker: %v", err)
	}
}
