package graph

import (
	"slices"
	"testing"

	"github.com/nbd-wtf/go-nostr/nip19"
)

// People are shown by npub: Npub encodes a 64-hex pubkey and shows anything
// else as given; Npubs does so for each of a list, in order, and an empty
// list stays a list (JSON []), never nil.
func TestNpubEncodingForPeople(t *testing.T) {
	want, _ := nip19.EncodePublicKey(pk("alice"))
	if got := Npub(pk("alice")); got != want {
		t.Fatalf("Npub = %s, want %s", got, want)
	}
	for _, s := range []string{"", "alice", "ABCDEF", want} {
		if got := Npub(s); got != s {
			t.Errorf("Npub(%q) = %q, want it unchanged", s, got)
		}
	}
	if got := Npubs([]string{pk("alice"), "x"}); !slices.Equal(got, []string{want, "x"}) {
		t.Fatalf("Npubs = %q", got)
	}
	if got := Npubs(nil); got == nil || len(got) != 0 {
		t.Fatalf("Npubs(nil) = %#v, want an empty non-nil list", got)
	}
}
