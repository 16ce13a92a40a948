package groups

import (
	"errors"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr/nip19"
)

// Rule (nip-29.md "Group referencing"): a group is named by an naddr of its
// kind 39000 whose pubkey is the relay's self, d the group id and relay hint
// the hosting relay; an invite code may follow as ?invite=<code>, and what
// precedes the ? is still the naddr.
func TestGroupRefNaddrWithInvite(t *testing.T) {
	self := pub(t, relaySK)
	n, err := Naddr(gid, "wss://groups.example", self, "c0de/+x")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseRef(n)
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != gid || r.Relay != "wss://groups.example" || r.Self != self || r.Invite != "c0de/+x" {
		t.Fatalf("%+v from %s", r, n)
	}
	bare, _ := Naddr(gid, "wss://groups.example", self, "")
	if r, err := ParseRef(bare); err != nil || r.Invite != "" || r.ID != gid {
		t.Fatalf("%+v %v", r, err)
	}
	for _, bad := range []string{bare + "?invite=", "naddr1xyz", bare[:len(bare)-3]} {
		if _, err := ParseRef(bad); !errors.Is(err, ErrRef) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// An naddr of any other kind does not name a group.
func TestGroupRefNaddrOfAnotherKindIsRefused(t *testing.T) {
	n, err := nip19.EncodeEntity(pub(t, relaySK), 30617, gid, []string{"wss://groups.example"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseRef(n); !errors.Is(err, ErrRef) || !strings.Contains(err.Error(), "kind 30617") {
		t.Fatalf("%v", err)
	}
}

// The `<relay>'<group-id>` form names the relay (a host, taken as wss://,
// or a full ws/wss URL) and the id.
func TestGroupRefHostQuoteID(t *testing.T) {
	for in, want := range map[string]Ref{
		"groups.example'pizza":            {ID: "pizza", Relay: "wss://groups.example"},
		"ws://127.0.0.1:7777'" + gid:      {ID: gid, Relay: "ws://127.0.0.1:7777"},
		"wss://groups.example/path'pizza": {ID: "pizza", Relay: "wss://groups.example/path"},
		"pizza":                           {ID: "pizza"},
		"  " + gid + " ":                  {ID: gid},
	} {
		got, err := ParseRef(in)
		if err != nil || got != want {
			t.Errorf("%q: %+v %v, want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "groups.example'", "'pizza", "a'b'c", "https://x'pizza", "two words"} {
		if _, err := ParseRef(bad); !errors.Is(err, ErrRef) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
