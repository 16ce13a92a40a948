package groups_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// joined is gOtherSK's join of the world's open group, and the list input
// that saves it (a journal in a fresh data directory).
func (w *modWorld) joined() (groups.ListInput, *journal.Dir) {
	w.t.Helper()
	w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate, Edit: groups.MetadataEdit{Name: str("Home")}})
	me := testkeys.Pub(w.t, gOtherSK)
	sign := func(_ context.Context, e *nostr.Event) error { return e.Sign(gOtherSK) }
	res, err := groups.Join(context.Background(), groups.RequestInput{Relays: w.pool, Publish: pipeline.PoolPublish(w.pool), Sign: sign, Me: me,
		Ask: []string{w.relay.URL()}, ID: gID, Now: nostr.Now})
	if err != nil || res.Outcome != groups.OutcomeJoined {
		w.t.Fatalf("join: %v %+v", err, res)
	}
	j := journal.Open(w.t.TempDir())
	return groups.ListInput{Relays: w.pool, Deliver: w.pool, Sign: sign, Me: me, Now: nostr.Now, Journal: j, Request: res, ID: gID, Name: "Home"}, j
}

func (w *modWorld) lists(pubkey string) []*nostr.Event {
	return w.relay.Stored(nostr.Filter{Kinds: []int{groups.KindGroupsList}, Authors: []string{pubkey}})
}

func journalWrites(t *testing.T, j *journal.Dir) []journal.Write {
	t.Helper()
	ws, problems, err := j.List()
	if err != nil || len(problems) > 0 {
		t.Fatalf("journal: %v %v", err, problems)
	}
	return ws
}

// Rule (NIP-51 kind 10009; every signed event is journaled until it is
// verified): after a join the list is offered, not written, without Save;
// with Save the new version keeps the other entry and the content, is read
// back, and its journal entry is gone.
func TestSaveListAfterAJoinKeepsEveryOtherEntryAndFinishesItsJournalEntry(t *testing.T) {
	t.Parallel()
	w := newModWorld(t)
	in, j := w.joined()
	prev := testkeys.Sign(t, gOtherSK, &nostr.Event{Kind: groups.KindGroupsList, CreatedAt: nostr.Now() - 10, Content: "encrypted items",
		Tags: nostr.Tags{{"group", "elsewhere", "wss://x.example"}}})
	if err := w.relay.Publish(prev); err != nil {
		t.Fatal(err)
	}
	offer, err := groups.SaveList(context.Background(), in)
	if err != nil || offer.Status != groups.ListOffered || offer.Offer == nil || !slices.Contains(offer.Offer.Words(), "--save") || len(w.lists(in.Me)) != 1 {
		t.Fatalf("without Save: %v %+v", err, offer)
	}
	in.Save = true
	saved, err := groups.SaveList(context.Background(), in)
	if err != nil || saved.Status != groups.ListSaved || saved.Previous != prev.ID {
		t.Fatalf("with Save: %v %+v", err, saved)
	}
	got := w.lists(in.Me)
	if len(got) != 1 || got[0].ID != saved.EventID || got[0].Content != prev.Content || len(groups.EntriesOf(got[0])) != 2 {
		t.Fatalf("the relay keeps %v", got)
	}
	if ws := journalWrites(t, j); len(ws) != 0 {
		t.Fatalf("a verified list stays in the journal: %+v", ws)
	}
}

// Rule (a list built on a partial read is never published): when a list
// relay does not answer, nothing is signed, sent or journaled.
func TestSaveListAfterAnUnansweredReadPublishesNothing(t *testing.T) {
	t.Parallel()
	w := newModWorld(t)
	in, j := w.joined()
	in.Save, in.ListRelays = true, []string{"ws://127.0.0.1:1"}
	_, err := groups.SaveList(context.Background(), in)
	if code(err) != groups.CodeIncomplete || len(w.lists(in.Me)) != 0 || len(journalWrites(t, j)) != 0 {
		t.Fatalf("want incomplete and nothing published: %v, lists %v", err, w.lists(in.Me))
	}
}

// Rule (an interrupted write is resumed with the same event, unless
// something changed): a list whose connection drops after the EVENT stays
// in the journal; Resume sends the same event. When another version of the
// list appears first, Resume sends nothing (concurrent-change).
func TestAGroupsListLostInTransitIsResumedWithTheSameEventUnlessAnotherVersionCameFirst(t *testing.T) {
	t.Parallel()
	for _, competing := range []bool{false, true} {
		w := newModWorld(t)
		in, j := w.joined()
		in.Save = true
		w.relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == groups.KindGroupsList }})
		_, err := groups.SaveList(context.Background(), in)
		w.relay.SetMisbehaviour(devrelay.Misbehaviour{})
		ws := journalWrites(t, j)
		if code(err) != groups.CodeModerationUnsure || len(ws) != 1 || len(w.lists(in.Me)) != 0 {
			t.Fatalf("a dropped list: %v, journal %+v", err, ws)
		}
		if competing {
			other := testkeys.Sign(t, gOtherSK, &nostr.Event{Kind: groups.KindGroupsList, CreatedAt: nostr.Now() + 5, Tags: nostr.Tags{{"group", "x", "wss://x.example"}}})
			if err := w.relay.Publish(other); err != nil {
				t.Fatal(err)
			}
		}
		r, err := groups.Resume(context.Background(), groups.ResumeInput{Relays: w.pool, Publish: pipeline.PoolPublish(w.pool), Journal: j, Now: time.Now}, ws[0])
		got := w.lists(in.Me)
		if competing {
			if code(err) != groups.CodeConcurrentChange || len(got) != 1 || got[0].ID == ws[0].ID || len(journalWrites(t, j)) != 1 {
				t.Fatalf("resume after another version: %v, lists %v", err, got)
			}
			continue
		}
		if err != nil || len(got) != 1 || got[0].ID != ws[0].ID || len(r.Sent[ws[0].ID]) != 1 || len(journalWrites(t, j)) != 0 {
			t.Fatalf("resume: %v %+v, lists %v", err, r, got)
		}
	}
}

type memStore struct {
	events map[string]*nostr.Event
	selves map[string]string
}

func (m *memStore) PutProjection(k string, e *nostr.Event) error { m.events[k] = e; return nil }
func (m *memStore) Projection(k string) (*nostr.Event, error)    { return m.events[k], nil }
func (m *memStore) PutRelayInfo(url string, doc json.RawMessage) error {
	var d struct{ Self string }
	_ = json.Unmarshal(doc, &d)
	m.selves[url] = d.Self
	return nil
}
func (m *memStore) CachedSelf(url string) (string, bool) { s, ok := m.selves[url]; return s, ok }

// Rule (nip-29.md "Detecting migrations and forks": when the group's relay
// is unreachable, clients MUST look at the kind 10009 of the group's
// admins): SearchMoves takes the admins from the cached 39001 of the relay
// that did not answer, finds the relay their lists name instead, and
// Advice offers reading the group there and moving the membership.
func TestSearchMovesFollowsTheCachedAdminsListsWhenTheGroupsRelayIsDown(t *testing.T) {
	t.Parallel()
	w := newModWorld(t)
	w.must(gOwnerSK, groups.ModerationInput{Action: groups.ActCreate})
	store := &memStore{events: map[string]*nostr.Event{}, selves: map[string]string{}}
	rd := groups.Read(context.Background(), w.pool, []string{w.relay.URL()}, gID)
	if p := groups.Keep(store, rd.Relays[0]); len(p) != 0 {
		t.Fatal(p)
	}
	lookup := devrelay.StartN(t, 1, devrelay.Options{})[0]
	list := testkeys.Sign(t, gOwnerSK, &nostr.Event{Kind: groups.KindGroupsList, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"group", gID, "wss://new.example"}}})
	if err := lookup.Publish(list); err != nil {
		t.Fatal(err)
	}
	down := []groups.RelayRead{{URL: w.relay.URL(), Status: relaypool.StatusFailed}}
	ms := groups.SearchMoves(context.Background(), w.pool, store, down, []string{lookup.URL()}, gID, "")
	owner := testkeys.Pub(t, gOwnerSK)
	if len(ms.Found) != 1 || ms.Found[0].Relay != "wss://new.example" || !slices.Contains(ms.Found[0].Admins, owner) || !ms.Complete {
		t.Fatalf("moves %+v", ms)
	}
	note, cmds := ms.Advice()
	if len(cmds) != 2 || !slices.Contains(cmds[1].Words(), "--from") || !slices.Contains(cmds[1].Words(), w.relay.URL()) || note == "" {
		t.Fatalf("advice %q %v", note, cmds)
	}
	// Without the cache no admin is known: only my own list is asked.
	none := groups.SearchMoves(context.Background(), w.pool, nil, down, []string{lookup.URL()}, gID, "")
	if len(none.Found) != 0 || len(none.Admins) != 0 {
		t.Fatalf("without a cache: %+v", none)
	}
}
