package relaypool_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/relaypool"
)

// challengelessRelay is a websocket relay that never sends a NIP-42
// challenge and answers every REQ with EOSE at once (as strfry does
// without auth configured); it returns the ws:// URL.
func challengelessRelay(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		for {
			_, msg, err := c.Read(r.Context())
			if err != nil {
				return
			}
			var arr []json.RawMessage
			if json.Unmarshal(msg, &arr) != nil || len(arr) < 2 {
				continue
			}
			var verb, id string
			_ = json.Unmarshal(arr[0], &verb)
			_ = json.Unmarshal(arr[1], &id)
			if verb == "REQ" {
				out, _ := json.Marshal([]string{"EOSE", id})
				if c.Write(r.Context(), websocket.MessageText, out) != nil {
					return
				}
			}
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// Rule (AuthFirst waits for a challenge once per connection, within the
// timeout): against a relay that sends no NIP-42 challenge, the first
// request waits at most half its --timeout for one and still answers
// (AuthWait alone would spend all of a --timeout shorter than it); the
// later requests on the same connection do not wait again.
func TestAuthFirstWaitsForAChallengeOncePerConnectionWithinTheTimeout(t *testing.T) {
	t.Parallel()
	url := challengelessRelay(t)
	const timeout = 800 * time.Millisecond // shorter than relaypool.AuthWait
	p := relaypool.New(relaypool.Options{Timeout: timeout, Auth: signer("carol"), AuthFirst: true})
	defer p.Close()
	start := time.Now()
	res := p.Fetch(context.Background(), []string{url}, nostr.Filter{Kinds: []int{30617}})
	if first := time.Since(start); !res.Complete || first > timeout {
		t.Fatalf("first request: %+v after %v (timeout %v)", res.Relays, first, timeout)
	}
	for i := range 3 {
		start = time.Now()
		res = p.Fetch(context.Background(), []string{url}, nostr.Filter{Kinds: []int{30617}})
		if took := time.Since(start); !res.Complete || took > timeout/4 {
			t.Fatalf("request %d: %+v after %v: it waited for a challenge again", i+2, res.Relays, took)
		}
	}
}
