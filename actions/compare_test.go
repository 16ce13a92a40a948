package actions_test

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/actions"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// authority grants the listed pubkeys every role-scoped action from a time on.
type authority map[string]int64

func (a authority) Authorized(pk string, _ graph.Action, at int64) bool {
	t, ok := a[pk]
	return ok && at >= t
}

func key(name string) (sk, pk string) {
	sk = testkeys.Named("actions-test-", name)
	pk, _ = nostr.GetPublicKey(sk)
	return
}

// A result that changes only because an author becomes authorized is
// reported with that event, its author and the result; an event the
// target's own author signed counts under both authorities and is never
// named.
func TestCompareNamesNewlyAuthorizedEventsAndTheResultTheyChange(t *testing.T) {
	erinSK, erin := key("erin")
	bobSK, bob := key("bob")
	a := nostr.Tag{"a", "30617:" + erin + ":my-repo"}
	iss := testkeys.Event(t, erinSK, actions.KindIssue, 10, "bug", a)
	root := nostr.Tag{"e", iss.ID, "", "root"}
	closed := testkeys.Event(t, bobSK, actions.KindStatusClosed, 20, "", a, root)
	own := testkeys.Event(t, erinSK, 1985, 15, "", a, nostr.Tag{"e", iss.ID}, nostr.Tag{"L", "#t"}, nostr.Tag{"l", "mine", "#t"})
	ix := actions.NewIndex([]*nostr.Event{iss, closed, own})
	if ix.Actions != 2 {
		t.Fatalf("indexed %d actions, want 2", ix.Actions)
	}
	changes := ix.Compare(authority{}, authority{bob: 0})
	if len(changes) != 1 {
		t.Fatalf("changes %+v, want one", changes)
	}
	c := changes[0]
	if c.Target != iss.ID || c.Result != actions.ResultStatus || c.From != "open" || c.To != "closed" {
		t.Fatalf("change %+v", c)
	}
	if len(c.Events) != 1 || c.Events[0].ID != closed.ID || c.Events[0].Author != bob || !c.Events[0].Newly {
		t.Fatalf("events %+v", c.Events)
	}
	// Authorized from after the status: nothing changes.
	if got := ix.Compare(authority{}, authority{bob: 21}); len(got) != 0 {
		t.Fatalf("changes %+v, want none", got)
	}
}

// A newly authorized event that a later counted one supersedes changes no
// result, so it is not reported.
func TestCompareIgnoresNewlyAuthorizedEventsThatChangeNoResult(t *testing.T) {
	erinSK, erin := key("erin")
	bobSK, bob := key("bob")
	a := nostr.Tag{"a", "30617:" + erin + ":my-repo"}
	iss := testkeys.Event(t, erinSK, actions.KindIssue, 10, "bug", a)
	root := nostr.Tag{"e", iss.ID, "", "root"}
	old := testkeys.Event(t, bobSK, actions.KindStatusClosed, 20, "", a, root)
	reopened := testkeys.Event(t, erinSK, actions.KindStatusOpen, 30, "", a, root)
	ix := actions.NewIndex([]*nostr.Event{iss, old, reopened})
	if got := ix.Compare(authority{}, authority{bob: 0}); len(got) != 0 {
		t.Fatalf("changes %+v, want none", got)
	}
}

// Kind 1985 is a label only in the `#t` namespace and a subject only in
// `#subject`, each needing its `L` declaration; other labels are no action.
func TestActionOfLabelNamespaces(t *testing.T) {
	sk, _ := key("x")
	for _, c := range []struct {
		tags nostr.Tags
		want graph.Action
		ok   bool
	}{
		{nostr.Tags{{"L", "#t"}, {"l", "bug", "#t"}}, graph.ActionLabel, true},
		{nostr.Tags{{"L", "#subject"}, {"l", "New title", "#subject"}}, graph.ActionSubject, true},
		{nostr.Tags{{"l", "bug", "#t"}}, "", false},
		{nostr.Tags{{"L", "ugc"}, {"l", "spam", "ugc"}}, "", false},
	} {
		e := testkeys.Event(t, sk, actions.KindLabel, 1, "", c.tags...)
		got, ok := actions.ActionOf(e)
		if got != c.want || ok != c.ok {
			t.Errorf("%v: %q %v, want %q %v", c.tags, got, ok, c.want, c.ok)
		}
	}
}
