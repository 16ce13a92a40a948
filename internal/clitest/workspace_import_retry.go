package clitest

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/swrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/workspace/pending"
	"github.com/roster-cli/roster/workspace/sections"
)

// AnswerLoser loses the relay's answer to the first import it is sent: it
// holds the OK until the client gives up and closes the connection. With
// Commit, the import is applied first (the answer is lost after the relay
// accepted it); without, it is never applied (lost on the way in). It
// records the raw JSON of every import it is sent.
type AnswerLoser struct {
	*swrelay.Authority
	Commit bool
	Mu     sync.Mutex
	Sent   []string
}

func (l *AnswerLoser) Ingest(ctx context.Context, env devrelay.Env, authed string, evt *nostr.Event) ([]*nostr.Event, error) {
	if evt.Kind != sections.KindImport {
		return l.Authority.Ingest(ctx, env, authed, evt)
	}
	raw, _ := evt.MarshalJSON()
	l.Mu.Lock()
	l.Sent = append(l.Sent, string(raw))
	first := len(l.Sent) == 1
	l.Mu.Unlock()
	if !first {
		return l.Authority.Ingest(ctx, env, authed, evt)
	}
	var out []*nostr.Event
	var err error
	if l.Commit {
		out, err = l.Authority.Ingest(ctx, env, authed, evt)
	}
	<-ctx.Done() // the client timed out and hung up: nobody reads this OK
	if !l.Commit {
		return nil, context.Cause(ctx)
	}
	return out, err
}

func (l *AnswerLoser) Imports() []string {
	l.Mu.Lock()
	defer l.Mu.Unlock()
	return append([]string(nil), l.Sent...)
}

// FirstImportTimesOut runs the owner's first import with a short deadline
// against a relay that loses its answer: exit 6 (unconfirmed), the signed
// import kept under the home (0600), the retry named first.
func FirstImportTimesOut(t *testing.T, w *SwWorld) string {
	t.Helper()
	home := t.TempDir()
	w.Homes[SwOwnerSK] = home
	r := Invocation{Env: map[string]string{"ROSTER_SECRET_KEY": SwOwnerSK, "ROSTER_HOME": home}}.
		Roster(t, "workspace", "import", "--json", "--relay", w.Relay.URL(), "--timeout", "1s")
	if e := DecodeOut[ErrorOut](t, r); r.Code != cmdutil.ExitUnverified || e.Error.Code != "unconfirmed" ||
		len(e.Error.Commands) == 0 || !strings.HasPrefix(e.Error.Commands[0], "roster workspace import --relay "+w.Relay.URL()+" ") {
		t.Fatalf("first import: exit %d %s", r.Code, r.Out)
	}
	community, _ := sections.CanonicalCommunity(w.Relay.URL())
	p := pending.Dir{Root: home}.Path(community, PubOf(t, SwOwnerSK))
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("kept import %s: %v %v", p, fi, err)
	}
	return p
}
