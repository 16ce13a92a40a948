package gitstate

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"
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

// naddrFromTLV bech32-encodes raw TLV bytes as an naddr, valid checksum and
// all, so the fuzzer reaches the TLV reader instead of the checksum.
func naddrFromTLV(t testing.TB, tlv []byte) string {
	bits, err := bech32.ConvertBits(tlv, 8, 5, true)
	if err != nil {
		t.Fatal(err)
	}
	s, err := bech32.Encode("naddr", bits)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// go-nostr's nip19.Decode panics on a kind TLV shorter than 4 bytes; ours
// must return an error.
func TestDecodeNaddrShortKindIsAnErrorNotAPanic(t *testing.T) {
	tlv := []byte{0, 1, 'r', 2, 32}
	tlv = append(tlv, make([]byte, 32)...)
	tlv = append(tlv, 3, 1, 7)
	if _, _, err := DecodeNaddr(naddrFromTLV(t, tlv)); err == nil || !strings.Contains(err.Error(), "kind") {
		t.Fatalf("got %v", err)
	}
}

func FuzzDecodeNaddrTLV(f *testing.F) {
	pk, _ := hex.DecodeString(alicePK)
	good := append([]byte{0, 4, 'r', 'e', 'p', 'o', 2, 32}, pk...)
	good = append(good, 3, 4, 0, 0, 0x77, 0xb9, 1, 9)
	good = append(good, "wss://r.x"...)
	f.Add(good)
	f.Add([]byte{3, 1, 7})
	f.Add([]byte{0, 200})
	f.Fuzz(func(t *testing.T, tlv []byte) {
		if len(tlv) > 600 {
			return
		}
		c, relays, err := DecodeNaddr(naddrFromTLV(t, tlv))
		if err != nil {
			return
		}
		if !c.Valid() || c.Kind != 30617 {
			t.Fatalf("accepted invalid coordinate %+v", c)
		}
		for _, r := range relays {
			if !strings.HasPrefix(r, "ws://") && !strings.HasPrefix(r, "wss://") {
				t.Fatalf("relay %q", r)
			}
		}
	})
}
