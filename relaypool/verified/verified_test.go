package verified

import (
	"sync"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

const sk = "0000000000000000000000000000000000000000000000000000000000000003"

func signedEvent(t testing.TB, content string) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: 30617, CreatedAt: 100, Content: content, Tags: nostr.Tags{{"d", "repo"}}}
	if err := evt.Sign(sk); err != nil {
		t.Fatal(err)
	}
	return evt
}

// Three relays answering at once deliver three copies of one event: the
// signature is checked once per (id, sig), even when the copies are checked
// concurrently.
func TestSameIDAndSigIsSignatureCheckedOnceEvenConcurrently(t *testing.T) {
	evt := signedEvent(t, "x")
	var m Memo
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			copy := *evt
			if _, ok := m.Check(&copy); !ok {
				t.Error("a valid event was rejected")
			}
		}()
	}
	close(start)
	wg.Wait()
	if n := m.SignatureChecks(); n != 1 {
		t.Fatalf("signature checked %d times for one (id, sig), want 1", n)
	}
}

// A forged copy (same id, another signature) is checked on its own and
// rejected; remembering the valid pair must not vouch for it.
func TestForgedSignatureOfAKnownIDIsStillRejected(t *testing.T) {
	evt := signedEvent(t, "x")
	var m Memo
	if _, ok := m.Check(evt); !ok {
		t.Fatal("valid event rejected")
	}
	forged := *evt
	other := signedEvent(t, "y")
	forged.Sig = other.Sig
	if _, ok := m.Check(&forged); ok {
		t.Fatal("a copy with another event's signature was accepted")
	}
	if _, ok := m.Check(&forged); ok {
		t.Fatal("a remembered failure turned into acceptance")
	}
}

func TestWrongIDIsRejectedWithoutASignatureCheck(t *testing.T) {
	evt := signedEvent(t, "x")
	evt.Content = "tampered"
	var m Memo
	if _, ok := m.Check(evt); ok {
		t.Fatal("event whose id does not hash its content was accepted")
	}
	if _, ok := Check(evt); ok {
		t.Fatal("Check accepted an event whose id does not hash its content")
	}
	if m.SignatureChecks() != 0 {
		t.Fatal("signature checked although the id was already wrong")
	}
}

// A token vouches only for the event exactly as it was checked: changing
// any signed field or the signature afterwards voids it.
func TestTokenIsVoidOnceTheEventChanges(t *testing.T) {
	evt := signedEvent(t, "x")
	v, ok := Check(evt)
	if !ok || !v.Valid() || v.Event() != evt {
		t.Fatal("fresh token is not valid for its event")
	}
	evt.Content = "changed"
	if v.Valid() {
		t.Fatal("token still valid after the content changed")
	}
	evt2 := signedEvent(t, "x")
	v2, _ := Check(evt2)
	evt2.Sig = signedEvent(t, "y").Sig
	if v2.Valid() {
		t.Fatal("token still valid after the signature changed")
	}
	var zero Event
	if zero.Valid() || zero.Event() != nil {
		t.Fatal("the zero token vouches for something")
	}
}
