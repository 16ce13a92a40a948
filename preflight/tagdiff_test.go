package preflight

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// No change, no event: the same tags in another order are the same set; a
// tag held twice is not the same as it held once.
func TestSameTagSetIgnoresOrderButCountsRepeats(t *testing.T) {
	a := nostr.Tags{{"d", "x"}, {"t", "go"}, {"t", "cli"}}
	if !sameTagSet(a, nostr.Tags{{"t", "cli"}, {"d", "x"}, {"t", "go"}}) {
		t.Fatal("a reordering is a change")
	}
	if sameTagSet(nostr.Tags{{"t", "go"}, {"t", "go"}, {"d", "x"}}, nostr.Tags{{"t", "go"}, {"d", "x"}, {"d", "x"}}) {
		t.Fatal("different repeats compared equal")
	}
}

// The preview names every difference: what the role changes and field
// changes do not say (the maintainers projection) is an other-tag edit.
func TestOtherTagEditsNameWhatRoleChangesDoNot(t *testing.T) {
	cur := nostr.Tags{{"d", "x"}, {"maintainers", "a", "b"}, {"M", "a", "1"}}
	next := nostr.Tags{{"d", "x"}, {"maintainers", "c", "b"}, {"M", "a", "1", "5"}, {"M", "c", "5"}}
	changes := []RoleChange{
		{Letter: "M", Subject: "a", Action: "end", Before: nostr.Tag{"M", "a", "1"}, After: nostr.Tag{"M", "a", "1", "5"}},
		{Letter: "M", Subject: "c", Action: "start", After: nostr.Tag{"M", "c", "5"}},
	}
	got := otherTagEdits(cur, next, changes, nil)
	if len(got) != 2 || got[0].Action != "remove" || got[0].Tag[1] != "a" || got[1].Action != "add" || got[1].Tag[1] != "c" {
		t.Fatalf("other edits %v, want the maintainers tag removed and added", got)
	}
}
