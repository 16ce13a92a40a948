package gitstate

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func FuzzParseRepoArg(f *testing.F) {
	a := npub(alicePK)
	for _, s := range []string{
		EncodeNaddr(coord(alicePK, "r"), []string{"wss://relay.one"}),
		"nostr://" + EncodeNaddr(coord(bobPK, "x"), nil),
		"nostr://" + a + "/relay.one/r", "nostr://ssh/" + a + "/r?relay=wss%3A%2F%2Fx",
		"nostr://git@ssh/bob@example.com/ws%3A%2F%2Flocalhost%3A7777/my%20repo",
		"origin", "nostr://", "naddr1qqqqqqqqqq", "nostr://" + alicePK + "//r/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, err := ParseRepoArg(s)
		if err != nil {
			return
		}
		if ref.Remote != "" {
			if ref.Coordinate.Identifier != "" {
				t.Fatalf("%q: remote and coordinate both set", s)
			}
			return
		}
		if ref.Coordinate.Identifier == "" || ref.Coordinate.Kind != 30617 {
			t.Fatalf("%q parsed to an empty coordinate %+v", s, ref)
		}
		if (ref.Coordinate.Pubkey == "") == (ref.NIP05 == "") {
			t.Fatalf("%q: want exactly one of pubkey and NIP-05, got %+v", s, ref)
		}
		for _, r := range ref.Relays {
			if !strings.HasPrefix(r, "wss://") && !strings.HasPrefix(r, "ws://") {
				t.Fatalf("%q: relay %q is not ws(s)", s, r)
			}
		}
		// A resolved coordinate must survive the canonical URL round trip.
		if ref.Coordinate.Pubkey != "" {
			back, err := ParseNostrURL(NostrURL(ref.Coordinate, nil))
			if err != nil || back.Coordinate != ref.Coordinate {
				t.Fatalf("%q: round trip of %+v gave %+v, %v", s, ref.Coordinate, back, err)
			}
		}
	})
}

func FuzzParseState(f *testing.F) {
	f.Add("d", "r", "HEAD", "ref: refs/heads/main", "refs/tags/v1^{}", oidA)
	f.Add("d", "", "refs/heads/x", "zz", "refs/tags", oidB)
	f.Fuzz(func(t *testing.T, n1, v1, n2, v2, n3, v3 string) {
		evt := &nostr.Event{Kind: 30618, Tags: nostr.Tags{{n1, v1}, {n2, v2}, {n3, v3}, {n1}}}
		s, err := ParseState(evt)
		if err != nil {
			return
		}
		for name, oid := range s.Refs {
			if refNameProblem(name) != "" || !isObjectID(oid) {
				t.Fatalf("kept invalid ref %q=%q", name, oid)
			}
		}
		if s.Head != "" && !strings.HasPrefix(s.Head, "refs/heads/") {
			t.Fatalf("head %q", s.Head)
		}
	})
}
