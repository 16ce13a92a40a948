package groups_test

import (
	"context"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// Rule (a replaceable list is replaced only as it was read): the kind
// 10009 is read again right before the new version is sent. Here the
// user's other device saved a version a second older than ours while ours
// was being signed (a bunker takes its time); sent, ours would replace it
// and its entry would be lost unseen. The save stops instead: refused
// (concurrent-change), nothing sent, the other version kept, and the
// journal holds no entry for a list no relay was sent.
func TestAGroupsListSavedElsewhereWhileSigningStopsTheSave(t *testing.T) {
	t.Parallel()
	w := newModWorld(t)
	in, j := w.joined()
	in.Save = true
	var theirs *nostr.Event
	sign := in.Sign
	in.Sign = func(ctx context.Context, e *nostr.Event) error {
		theirs = testkeys.Sign(t, gOtherSK, &nostr.Event{Kind: groups.KindGroupsList, CreatedAt: e.CreatedAt - 1,
			Tags: nostr.Tags{{"group", "from-the-phone", "wss://phone.example"}}})
		if err := w.relay.Publish(theirs); err != nil {
			t.Fatal(err)
		}
		return sign(ctx, e)
	}
	up, err := groups.SaveList(context.Background(), in)
	pe, ok := err.(*pipeline.Error)
	if !ok || pe.Code != groups.CodeConcurrentChange || pe.Class != pipeline.Refused || up.Status == groups.ListSaved {
		t.Fatalf("got %v (%+v), want a refused concurrent-change", err, up)
	}
	if got := w.lists(in.Me); len(got) != 1 || got[0].ID != theirs.ID {
		t.Fatalf("the relay keeps %v, want only the version saved meanwhile (%s)", got, theirs.ID)
	}
	if ws := journalWrites(t, j); len(ws) != 0 {
		t.Fatalf("a list sent to no relay stays in the journal: %+v", ws)
	}
	if len(pe.Next) == 0 {
		t.Fatalf("the refusal names no command to run next: %+v", pe)
	}
}
