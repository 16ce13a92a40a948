package testkeys

import (
	"fmt"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// Sybils are valid events: go-nostr's verifier accepts every signature and
// id, each author is its own Named key, and each names only its author.
func TestSybilsAreValidlySigned(t *testing.T) {
	evs := Sybils(t, "repo", 64)
	seen := map[string]bool{}
	for i, e := range evs {
		if ok, err := e.CheckSignature(); !ok || err != nil {
			t.Fatalf("sybil %d: signature does not verify (%v)", i, err)
		}
		if e.GetID() != e.ID {
			t.Fatalf("sybil %d: id %s, want %s", i, e.ID, e.GetID())
		}
		want, err := nostr.GetPublicKey(Named("sybil-", fmt.Sprint(i)))
		if err != nil || e.PubKey != want {
			t.Fatalf("sybil %d: author %s, want %s (%v)", i, e.PubKey, want, err)
		}
		if (*e.Tags.GetFirst([]string{"M"}))[1] != e.PubKey || (*e.Tags.GetFirst([]string{"d"}))[1] != "repo" {
			t.Fatalf("sybil %d: tags %v", i, e.Tags)
		}
		if seen[e.PubKey] {
			t.Fatalf("sybil %d: author repeated", i)
		}
		seen[e.PubKey] = true
	}
	// A changed event no longer verifies: the check above is not vacuous.
	bad := *evs[0]
	bad.Content = "changed"
	bad.ID = bad.GetID()
	if ok, _ := bad.CheckSignature(); ok {
		t.Fatal("a changed sybil still verifies")
	}
}
