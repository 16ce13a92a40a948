package clitest

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// Profile is p's kind 0 event with content.
func (p Person) Profile(t testing.TB, created int64, content map[string]any) *nostr.Event {
	t.Helper()
	raw, _ := json.Marshal(content)
	evt := &nostr.Event{Kind: 0, CreatedAt: nostr.Timestamp(created), Tags: nostr.Tags{}, Content: string(raw)}
	if err := evt.Sign(p.Sk); err != nil {
		t.Fatal(err)
	}
	return evt
}

// Nip05Server is an HTTPS server answering /.well-known/nostr.json for
// names (local part -> hex pubkey) of every domain, and a client that
// reaches it for any host name its certificate covers (example.com).
// lookups counts the requests.
func Nip05Server(t *testing.T, names map[string]string) (*http.Client, *atomic.Int32) {
	t.Helper()
	var lookups atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lookups.Add(1)
		if r.URL.Path != "/.well-known/nostr.json" {
			http.NotFound(w, r)
			return
		}
		name := r.URL.Query().Get("name")
		out := map[string]any{"names": map[string]string{}}
		if pk, ok := names[name]; ok {
			out["names"] = map[string]string{name: pk}
		}
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	c := srv.Client()
	tr := c.Transport.(*http.Transport).Clone()
	addr := srv.Listener.Addr().String()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	c.Transport = tr
	return c, &lookups
}

func ShortNpubForTest(npub string) string { return npub[:8] + "…" + npub[len(npub)-4:] }
