package graph

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// stateEvt builds and signs a kind 30618 state by alias.
func stateEvt(t testing.TB, alias string, createdAt int64, tags ...[]string) *nostr.Event {
	t.Helper()
	e := &nostr.Event{Kind: KindState, CreatedAt: nostr.Timestamp(createdAt), Tags: nostr.Tags{{"d", testID}}}
	for _, tag := range tags {
		e.Tags = append(e.Tags, expand(tag))
	}
	if err := e.Sign(secretOf(alias)); err != nil {
		t.Fatal(err)
	}
	return e
}

// "Current kind 30618 state ... [is] filtered through the confirmed
// component": the newest latest-per-author state of a confirmed maintainer
// wins; state from outside the component never does.
func TestStateSelectionIsNewestConfirmedMaintainerState(t *testing.T) {
	alice := ann(t, "alice", 100, []string{"M", "<alice>"}, []string{"m", "<bob>", "100"}, []string{"maintainers", "<alice>", "<bob>"})
	bob := ann(t, "bob", 110, []string{"M", "<alice>", "110"}, []string{"m", "<bob>", "110"}, []string{"maintainers", "<alice>", "<bob>"})
	sa := stateEvt(t, "alice", 200, []string{"refs/heads/main", "aa"})
	sb := stateEvt(t, "bob", 300, []string{"refs/heads/main", "bb"})
	outsider := stateEvt(t, "mallory", 400, []string{"refs/heads/main", "cc"})
	evts := []*nostr.Event{alice, bob, sa, sb, outsider}
	r := Resolve(evts, sel("alice"), 10_000, Options{})
	if got := SelectState(evts, r); got != sb {
		t.Fatalf("selected %v, want bob's newest state", got)
	}
	if got := SelectState([]*nostr.Event{alice, bob, outsider}, r); got != nil {
		t.Fatalf("an outsider's state was selected: %v", got)
	}
}

// NIP-09 for state, by the same rule as announcements: a same-author kind 5
// naming the latest state's id, or its 30618 address at or after its
// created_at, removes it, and the author's older state does not come back.
// Another author's deletion, or an address deletion older than the state,
// removes nothing.
func TestStateSelectionAppliesTheNip09DeletionRule(t *testing.T) {
	alice := ann(t, "alice", 100, []string{"M", "<alice>"}, []string{"m", "<bob>", "100"}, []string{"maintainers", "<alice>", "<bob>"})
	bob := ann(t, "bob", 110, []string{"M", "<alice>", "110"}, []string{"m", "<bob>", "110"}, []string{"maintainers", "<alice>", "<bob>"})
	sa := stateEvt(t, "alice", 200, []string{"refs/heads/main", "aa"})
	oldB := stateEvt(t, "bob", 250, []string{"refs/heads/main", "b0"})
	sb := stateEvt(t, "bob", 300, []string{"refs/heads/main", "bb"})
	base := []*nostr.Event{alice, bob, sa, oldB, sb}
	pick := func(extra ...*nostr.Event) *nostr.Event {
		evts := append(append([]*nostr.Event{}, base...), extra...)
		return SelectState(evts, Resolve(evts, sel("alice"), 10_000, Options{}))
	}
	addr := "30618:<bob>:" + testID
	for name, d := range map[string]*nostr.Event{
		"by id":                    del(t, "bob", 350, []string{"e", sb.ID}),
		"by address at created_at": del(t, "bob", 300, []string{"a", addr}),
		"by address after":         del(t, "bob", 900, []string{"a", addr}),
	} {
		if got := pick(d); got != sa {
			t.Errorf("%s: selected %v, want alice's state (bob's latest is deleted, his older one stays replaced)", name, got)
		}
	}
	for name, d := range map[string]*nostr.Event{
		"another author":         del(t, "mallory", 350, []string{"e", sb.ID}),
		"older address deletion": del(t, "bob", 299, []string{"a", addr}),
		"another identifier":     del(t, "bob", 900, []string{"a", "30618:<bob>:other"}),
	} {
		if got := pick(d); got != sb {
			t.Errorf("%s: selected %v, want bob's state", name, got)
		}
	}
}
