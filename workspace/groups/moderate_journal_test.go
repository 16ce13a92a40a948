package groups_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// counted counts the NIP-11 reads and the fetches a pipeline makes.
type counted struct {
	pipeline.Relays
	infos, fetches atomic.Int32
}

func (c *counted) RelayInfo(ctx context.Context, url string) (*relaypool.RelayInfo, error) {
	c.infos.Add(1)
	return c.Relays.RelayInfo(ctx, url)
}

func (c *counted) Fetch(ctx context.Context, relays []string, filters ...nostr.Filter) *relaypool.FetchResult {
	c.fetches.Add(1)
	return c.Relays.Fetch(ctx, relays, filters...)
}

// Rule (every signed event is in the journal before the first is sent):
// create signs its 9007 and its 9002 before sending either, so a 9007
// whose connection drops leaves both signed events in the journal, in
// order; nothing was stored.
func TestCreateSignsBothStepsBeforeTheFirstIsSent(t *testing.T) {
	t.Parallel()
	w := newModWorld(t)
	j := journal.Open(t.TempDir())
	w.relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == groups.KindCreateGroup }})
	_, err := w.run(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate, Edit: groups.MetadataEdit{Name: str("Home")}, Journal: j, Command: []string{"group", "create"}})
	if code(err) != pipeline.CodeUnconfirmed {
		t.Fatalf("want unconfirmed, got %v", err)
	}
	ws := journalWrites(t, j)
	if len(ws) != 1 || !ws[0].Complete() || len(ws[0].Entries) != 2 || ws[0].Entries[0].Event.Kind != groups.KindCreateGroup || ws[0].Entries[1].Event.Kind != groups.KindEditMetadata {
		t.Fatalf("journal %+v", ws)
	}
	for _, e := range ws[0].Entries {
		if ok, _ := e.Event.CheckSignature(); !ok {
			t.Fatalf("kind %d is not signed in the journal", e.Event.Kind)
		}
	}
	if got := w.relay.Stored(nostr.Filter{Kinds: []int{groups.KindCreateGroup}}); len(got) != 0 {
		t.Fatalf("the dropped 9007 is stored: %v", got)
	}
}

// Rule (one read, reused): a moderation command reads the relay's NIP-11
// once, its verification reuses it and does not read the recent events
// again; a delete that is previewed, confirmed and sent reads the group
// once before sending.
func TestModerationReadsTheRelayOnceAndItsVerificationReusesIt(t *testing.T) {
	t.Parallel()
	w := newModWorld(t)
	w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate})
	c := &counted{Relays: w.pool}
	in := groups.ModerationInput{Action: groups.ActDeleteGroup, ID: gID, Relays: c, Publish: pipeline.PoolPublish(w.pool), Ask: []string{w.relay.URL()}, Now: nostr.Now}
	in.Me = testkeys.Pub(t, gOwnerSK)
	in.Sign = func(_ context.Context, e *nostr.Event) error { return e.Sign(gOwnerSK) }
	p, err := groups.Prepare(context.Background(), in)
	if err != nil || len(p.Result.Preview) == 0 || c.fetches.Load() != 1 {
		t.Fatalf("prepare: %v, %d fetches", err, c.fetches.Load())
	}
	res, err := p.Send(context.Background())
	if err != nil || res.Verified == "" {
		t.Fatalf("send: %v %+v", err, res)
	}
	if c.infos.Load() != 1 || c.fetches.Load() != 2 {
		t.Fatalf("%d NIP-11 reads and %d fetches, want 1 and 2 (the read, the verification)", c.infos.Load(), c.fetches.Load())
	}
}
