package main

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/swrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/pending"
	"github.com/roster-cli/roster/workspace/sections"
)

// answerLoser loses the relay's answer to the first import it is sent: it
// holds the OK until the client gives up and closes the connection. With
// commit, the import is applied first (the answer is lost after the relay
// accepted it); without, it is never applied (lost on the way in). It
// records the raw JSON of every import it is sent.
type answerLoser struct {
	*swrelay.Authority
	commit bool
	mu     sync.Mutex
	sent   []string
}

func (l *answerLoser) Ingest(ctx context.Context, env devrelay.Env, authed string, evt *nostr.Event) ([]*nostr.Event, error) {
	if evt.Kind != sections.KindImport {
		return l.Authority.Ingest(ctx, env, authed, evt)
	}
	raw, _ := evt.MarshalJSON()
	l.mu.Lock()
	l.sent = append(l.sent, string(raw))
	first := len(l.sent) == 1
	l.mu.Unlock()
	if !first {
		return l.Authority.Ingest(ctx, env, authed, evt)
	}
	var out []*nostr.Event
	var err error
	if l.commit {
		out, err = l.Authority.Ingest(ctx, env, authed, evt)
	}
	<-ctx.Done() // the client timed out and hung up: nobody reads this OK
	if !l.commit {
		return nil, context.Cause(ctx)
	}
	return out, err
}

func (l *answerLoser) imports() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.sent...)
}

// firstImportTimesOut runs the owner's first import with a short deadline
// against a relay that loses its answer: exit 6 (unconfirmed), the signed
// import kept under the home (0600), the retry named first.
func firstImportTimesOut(t *testing.T, w *swWorld) string {
	t.Helper()
	home := t.TempDir()
	w.homes[swOwnerSK] = home
	r := invocation{Env: map[string]string{"ROSTER_SECRET_KEY": swOwnerSK, "ROSTER_HOME": home}}.
		roster(t, "workspace", "import", "--json", "--relay", w.relay.URL(), "--timeout", "1s")
	if e := decodeOut[errorOut](t, r); r.Code != cmdutil.ExitUnverified || e.Error.Code != "unconfirmed" ||
		len(e.Error.Commands) == 0 || !strings.HasPrefix(e.Error.Commands[0], "roster workspace import --relay "+w.relay.URL()+" ") {
		t.Fatalf("first import: exit %d %s", r.Code, r.Out)
	}
	community, _ := sections.CanonicalCommunity(w.relay.URL())
	p := pending.Dir{Root: home}.Path(community, pubOf(t, swOwnerSK))
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("kept import %s: %v %v", p, fi, err)
	}
	return p
}

// waitStored waits, with a deadline, until the relay stores n projections of
// the owner's workspace.
func waitStored(t *testing.T, w *swWorld, n int) {
	t.Helper()
	f := nostr.Filter{Kinds: []int{sections.KindProjection}, Tags: nostr.TagMap{"d": {pubOf(t, swOwnerSK)}}}
	for deadline := time.Now().Add(10 * time.Second); len(w.relay.Stored(f)) != n; {
		if time.Now().After(deadline) {
			t.Fatalf("the relay stores %d projections, want %d", len(w.relay.Stored(f)), n)
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
	l := &answerLoser{Authority: swrelay.New(swrelay.Options{})}
	w := newSWWorldWith(t, l)
	legacy := w.publishLegacy()
	kept := firstImportTimesOut(t, w)
	// The kept import is not in the cache: clearing it changes nothing.
	if r := (invocation{Env: map[string]string{"ROSTER_HOME": w.homes[swOwnerSK]}}).roster(t, "cache", "clear"); r.Code != cmdutil.ExitOK {
		t.Fatalf("cache clear: exit %d %s", r.Code, r.Err)
	}

	out := decodeOut[report.WorkspaceImport](t, w.mustAs(swOwnerSK, "workspace", "import", "--json"))
	sent := l.imports()
	if len(sent) != 2 || sent[0] != sent[1] {
		t.Fatalf("the retry did not send the first attempt's bytes:\n%v", sent)
	}
	var first nostr.Event
	_ = first.UnmarshalJSON([]byte(sent[0]))
	if !out.Switched || !out.Resumed || !out.Replayed || out.EventID != first.ID || out.SourceEventID != legacy.ID || out.Workspace.Revision != 1 {
		t.Fatalf("retry result %+v", out)
	}
	if st := w.stored(); st.Revision != 1 || st.Migration == nil || st.Migration.SourceEventID != legacy.ID {
		t.Fatalf("relay state %+v", st)
	}
	if _, err := os.Stat(kept); !os.IsNotExist(err) {
		t.Fatalf("the kept import outlived its marker: %v", err)
	}
	// Done: another run is the ordinary second import, refused.
	if r := w.as(swOwnerSK, "workspace", "import"); r.Code != cmdutil.ExitRefused {
		t.Fatalf("import after the marker: exit %d %s", r.Code, r.Err)
	}
}

// The relay applied the import but its OK was lost (the client timed out):
// the retry finds the kept import's marker already there and finishes
// without minting anything; the relay holds one import.
func TestWorkspaceImportRetryAfterLostOKFinishesWithoutASecondImport(t *testing.T) {
	t.Parallel()
	l := &answerLoser{Authority: swrelay.New(swrelay.Options{}), commit: true}
	w := newSWWorldWith(t, l)
	w.publishLegacy()
	kept := firstImportTimesOut(t, w)
	waitStored(t, w, 1)

	events := w.relay.EventCount()
	out := decodeOut[report.WorkspaceImport](t, w.mustAs(swOwnerSK, "workspace", "import", "--json"))
	var first nostr.Event
	_ = first.UnmarshalJSON([]byte(l.imports()[0]))
	if !out.Switched || !out.Resumed || out.Replayed || out.EventID != first.ID || out.ActionID != first.Tags.GetFirst([]string{"action", ""}).Value() {
		t.Fatalf("retry result %+v", out)
	}
	if len(l.imports()) != 1 || w.relay.EventCount() != events {
		t.Fatalf("the retry sent %d imports (%d events)", len(l.imports()), w.relay.EventCount()-events)
	}
	if st := w.stored(); st.Revision != 1 {
		t.Fatalf("relay state revision %d", st.Revision)
	}
	if _, err := os.Stat(kept); !os.IsNotExist(err) {
		t.Fatalf("the kept import outlived its marker: %v", err)
	}
}
