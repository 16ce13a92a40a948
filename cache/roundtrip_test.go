package cache

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// docs/architecture.md "Library pitfalls": encoding/json escapes <>& and other
// characters. A cached event must read back byte-for-byte in every signed field,
// or its id no longer matches and --offline would drop it as damaged.
func TestStoredEventKeepsItsIDThroughEscapingCharacters(t *testing.T) {
	c, _ := openTemp(t)
	tricky := "<b>a & b</b> \u2028\u2029 \"quoted\" back\\slash \x01\x1f tab\t nl\n é 🎉"
	evt := signed(t, aliceSK, 30617, 100, tricky, nostr.Tag{"d", "repo"}, nostr.Tag{"description", tricky}, nostr.Tag{"web", "https://x.example/?a=1&b=<2>"})
	if err := c.Put(evt); err != nil {
		t.Fatal(err)
	}
	got, err := c.Event(evt.ID)
	if err != nil || got == nil {
		t.Fatalf("event not read back: %v", err)
	}
	if got.Content != tricky || got.Tags[1][1] != tricky || !got.CheckID() {
		t.Fatalf("read back changed: content %q, id ok %v", got.Content, got.CheckID())
	}
	if ok, err := got.CheckSignature(); !ok || err != nil {
		t.Fatalf("read-back signature no longer verifies: %v", err)
	}
}
