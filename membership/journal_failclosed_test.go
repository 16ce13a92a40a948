package membership

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/signer"
)

// countingSigner counts the events it signs.
type countingSigner struct {
	signer.Signer
	signed *int
}

func (s countingSigner) SignEvent(ctx context.Context, evt *nostr.Event) error {
	*s.signed++
	return s.Signer.SignEvent(ctx, evt)
}

// Rule (the journal fails closed): when the journal holds a file that
// cannot be read and may be an unfinished write of this coordinate, the
// change cannot tell whether it would sign a second event beside an
// unfinished one, so it stops before signing, naming the file and the
// command that forgets it.
func TestAChangeStopsBeforeSigningWhenItsJournalCannotBeRead(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	j := journal.Open(t.TempDir())
	if err := os.MkdirAll(j.Root, 0o700); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(j.Root, strings.Repeat("a", 64)+"-0.json")
	if err := os.WriteFile(corrupt, []byte(`{"version":1,"event":`), 0o600); err != nil {
		t.Fatal(err)
	}
	p := w.pipeline(t)
	p.Journal = j
	n := 0
	p.Signer = countingSigner{Signer: p.Signer, signed: &n}
	_, err := p.Run(context.Background(), addBob(t), false)
	var f *Failure
	if !errors.As(err, &f) || f.Code != KindJournalUnreadable || !errors.Is(err, journal.ErrUnreadable) ||
		!strings.Contains(f.Msg, corrupt) || !strings.Contains(f.Msg, "roster pending discard "+strings.Repeat("a", 12)) {
		t.Fatalf("run with a corrupt journal: %v", err)
	}
	if n != 0 || len(w.published) != 0 {
		t.Fatalf("signed %d, published %d", n, len(w.published))
	}
	// Once the file is forgotten the change goes ahead.
	if _, _, err := j.Discard(strings.Repeat("a", 12)); err != nil {
		t.Fatal(err)
	}
	if out, err := p.Run(context.Background(), addBob(t), false); err != nil || !out.Verified {
		t.Fatalf("run once the journal reads: %v", err)
	}
}

// Rule (a comparison that could not be made is a failure): a resume whose
// verification read carries no relay answers cannot tell that any relay
// holds the event, so it is unverified and the write stays in the journal.
func TestAResumeWhoseReReadHasNoRelayAnswersIsUnverified(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: false}
	j := journal.Open(t.TempDir())
	var held []bool
	p := w.pipeline(t)
	p.Journal = j
	p.Relays = relayFuncs{deliver: journaled(t, w, j, &held)}
	if _, err := p.Run(context.Background(), addBob(t), false); err == nil {
		t.Fatal("the change verified on a relay that keeps nothing")
	}
	writes, _, _ := j.List()
	if len(writes) != 1 {
		t.Fatalf("journal: %v", writes)
	}
	w.keep = true
	p.Read = readFuncs{load: func(ctx context.Context) (*discovery.View, error) {
		v, err := w.view(ctx)
		if v != nil {
			v.Fetch = nil
		}
		return v, err
	}}
	_, err := p.Resume(context.Background(), writes[0])
	var rf *ResumeFailure
	if !errors.As(err, &rf) || rf.Code != KindUnverified || len(rf.Problems) == 0 || !strings.Contains(rf.Problems[0], "could not be checked") {
		t.Fatalf("resume with a re-read without relay answers: %v", err)
	}
	if left, _, _ := j.List(); len(left) != 1 {
		t.Fatalf("the unverified write left the journal: %v", left)
	}
}
