package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

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
	l := &answerLoser{Authority: swrelay.New(swrelay.Options{})}
	w := newSWWorldWith(t, l)
	w.publishLegacy()
	kept := firstImportTimesOut(t, w)
	home := w.homes[swOwnerSK]
	env := map[string]string{"ROSTER_SECRET_KEY": swOwnerSK, "ROSTER_HOME": home}
	r := invocation{Env: env}.roster(t, "pending", "--json", "--timeout", "5s")
	var p pendingJSON
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &p) != nil || len(p.Writes) != 1 ||
		strings.Join(p.Writes[0].Command, " ") != "roster workspace import --relay "+w.relay.URL() {
		t.Fatalf("roster pending: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	r = invocation{Env: env, Seams: cmdutil.Seams{Http: w.http}}.roster(t, "pending", "resume", p.Writes[0].ID[:12], "--json", "--timeout", "5s")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("resume: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	out := decodeOut[report.WorkspaceImport](t, r)
	sent := l.imports()
	var first nostr.Event
	_ = first.UnmarshalJSON([]byte(sent[0]))
	if len(sent) != 2 || sent[0] != sent[1] || !out.Switched || !out.Replayed || out.EventID != first.ID || out.EventID != p.Writes[0].ID {
		t.Fatalf("resume sent %d imports (same bytes: %v), result %+v", len(sent), len(sent) == 2 && sent[0] == sent[1], out)
	}
	if _, err := os.Stat(kept); !os.IsNotExist(err) {
		t.Fatalf("the kept import outlived its marker: %v", err)
	}
}
