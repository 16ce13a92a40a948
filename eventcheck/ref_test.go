package eventcheck_test

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/eventcheck"
)

// A reference is a nevent (with its relay hints), a note1 or a 64-hex id;
// an npub or naddr names no event and is refused.
func TestParseRefReadsNeventNoteAndHex(t *testing.T) {
	id := strings.Repeat("ab", 32)
	nevent, _ := nip19.EncodeEvent(id, []string{"wss://relay.example"}, "")
	note, _ := nip19.EncodeNote(id)
	npub, _ := nip19.EncodePublicKey(id)
	for _, c := range []struct {
		in     string
		relays int
	}{{id, 0}, {note, 0}, {"nostr:" + note, 0}, {nevent, 1}} {
		r, err := eventcheck.ParseRef(c.in)
		if err != nil || r.ID != id || len(r.Relays) != c.relays {
			t.Errorf("%s: %+v %v", c.in, r, err)
		}
	}
	for _, bad := range []string{npub, "xyz", strings.ToUpper(id)} {
		if _, err := eventcheck.ParseRef(bad); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}
