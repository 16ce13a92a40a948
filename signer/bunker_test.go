package signer

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

const testRemote = "fa984bd7dbb282f07e16e7ae87b26a2a7b9b90b7246a44771f0cf5ae58018f52"

func TestParseBunkerURLAndRedactDropsTheSecret(t *testing.T) {
	b, err := ParseBunkerURL("bunker://" + testRemote + "?relay=wss%3A%2F%2Frelay.example.com&relay=ws://127.0.0.1:7777&secret=s3cr3t-token")
	if err != nil {
		t.Fatal(err)
	}
	if b.RemotePubkey != testRemote || b.Secret != "s3cr3t-token" || len(b.Relays) != 2 || b.Relays[0] != "wss://relay.example.com" {
		t.Fatalf("parsed %+v", b)
	}
	red := b.Redacted()
	if strings.Contains(red, "s3cr3t-token") || strings.Contains(red, "secret") {
		t.Fatalf("redacted URL %q keeps the secret", red)
	}
	again, err := ParseBunkerURL(red)
	if err != nil || again.RemotePubkey != b.RemotePubkey || strings.Join(again.Relays, ",") != strings.Join(b.Relays, ",") || again.Secret != "" {
		t.Fatalf("redacted URL does not round-trip: %+v %v", again, err)
	}
}

func TestParseBunkerURLErrorsNeverRepeatTheSecret(t *testing.T) {
	for _, in := range []string{
		"https://" + testRemote + "?relay=wss://r.example&secret=TOPSECRET",
		"bunker://npub1xyz?relay=wss://r.example&secret=TOPSECRET",
		"bunker://" + testRemote + "?secret=TOPSECRET",
		"bunker://" + testRemote + "?relay=http://r.example&secret=TOPSECRET",
		"bunker://%zz?secret=TOPSECRET",
	} {
		_, err := ParseBunkerURL(in)
		if err == nil {
			t.Fatalf("%q accepted", in)
		}
		if strings.Contains(err.Error(), "TOPSECRET") {
			t.Fatalf("error %q repeats the secret", err)
		}
	}
}

// A bunker must sign exactly the event roster asked for.
func TestBunkerAnswerThatAltersTheEventIsRefused(t *testing.T) {
	want := nostr.Event{PubKey: testRemote, Kind: 30617, CreatedAt: 10, Tags: nostr.Tags{{"d", "x"}}, Content: ""}
	same := want
	same.Tags = nostr.Tags{{"d", "x"}}
	if err := sameUnsigned(&want, &same); err != nil {
		t.Fatal(err)
	}
	for name, mutate := range map[string]func(e *nostr.Event){
		"tags":    func(e *nostr.Event) { e.Tags = nostr.Tags{{"d", "x"}, {"maintainers", testRemote}} },
		"kind":    func(e *nostr.Event) { e.Kind = 1 },
		"time":    func(e *nostr.Event) { e.CreatedAt = 11 },
		"content": func(e *nostr.Event) { e.Content = "x" },
		"pubkey":  func(e *nostr.Event) { e.PubKey = strings.Repeat("1", 64) },
	} {
		got := want
		got.Tags = nostr.Tags{{"d", "x"}}
		mutate(&got)
		if err := sameUnsigned(&want, &got); err == nil {
			t.Fatalf("altered %s accepted", name)
		}
	}
}

// ParseBunkerURL reads user input that may carry a secret: it never panics,
// an accepted URL redacts to one without the secret that parses back, and an
// error never repeats the secret.
func FuzzParseBunkerURL(f *testing.F) {
	f.Add("bunker://" + testRemote + "?relay=wss://r.example&secret=abc")
	f.Add("bunker://" + testRemote + "?relay=ws://127.0.0.1:1&relay=wss%3A%2F%2Fx&secret=")
	f.Add("bunker://%zz?secret=s")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBunkerURL(s)
		if err != nil {
			if b.Secret == "" && len(s) > 12 && strings.Contains(err.Error(), s) {
				t.Fatalf("error repeats the whole input: %v", err)
			}
			return
		}
		red := b.Redacted()
		again, err := ParseBunkerURL(red)
		if err != nil || again.Secret != "" || again.RemotePubkey != b.RemotePubkey || len(again.Relays) != len(b.Relays) {
			t.Fatalf("redacted %q does not parse back: %+v %v", red, again, err)
		}
		if b.Secret != "" && len(b.Secret) > 3 && strings.Contains(red, b.Secret) && !strings.Contains(b.RemotePubkey+strings.Join(b.Relays, ""), b.Secret) {
			t.Fatalf("redacted %q keeps the secret %q", red, b.Secret)
		}
	})
}
