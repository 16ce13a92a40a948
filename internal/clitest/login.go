package clitest

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip46"
)

func HomeEnv(t *testing.T) map[string]string {
	return map[string]string{"ROSTER_HOME": filepath.Join(t.TempDir(), "home")}
}

// StartTestBunker runs go-nostr's NIP-46 signer side in-process over relayURL,
// holding userSK. It authorizes a client that connects with secret, and only
// such clients afterwards. It returns the bunker:// URL and a counter of the
// sign_event requests it answered.
func StartTestBunker(t *testing.T, relayURL, userSK, secret string) (string, func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	pk, _ := nostr.GetPublicKey(userSK)
	ks := nip46.NewStaticKeySigner(userSK)
	var mu sync.Mutex
	authorized := map[string]bool{}
	signed := 0
	ks.AuthorizeRequest = func(_ bool, from, given string) bool {
		mu.Lock()
		defer mu.Unlock()
		if given != "" && given == secret {
			authorized[from] = true
		}
		return authorized[from]
	}
	r, err := nostr.RelayConnect(ctx, relayURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	sub, err := r.Subscribe(ctx, nostr.Filters{{Kinds: []int{nostr.KindNostrConnect}, Tags: nostr.TagMap{"p": []string{pk}}}})
	if err != nil {
		t.Fatal(err)
	}
	<-sub.EndOfStoredEvents
	go func() {
		for evt := range sub.Events {
			req, _, resp, err := ks.HandleRequest(ctx, evt)
			if err != nil {
				continue
			}
			if req.Method == "sign_event" {
				mu.Lock()
				signed++
				mu.Unlock()
			}
			_ = r.Publish(ctx, resp)
		}
	}()
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return signed
	}
	return "bunker://" + pk + "?relay=" + relayURL + "&secret=" + secret, count
}

// OrEmpty reads a nullable JSON string field, "" for null.
func OrEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
