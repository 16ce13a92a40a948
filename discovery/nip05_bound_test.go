package discovery

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/roster-cli/roster/cache"
)

// hangingNIP05 is an HTTPS server that answers /.well-known/nostr.json only
// when the request is given up, and a client that reaches it for any host.
func hangingNIP05(t *testing.T) *http.Client {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	c := srv.Client()
	tr := c.Transport.(*http.Transport).Clone()
	addr := srv.Listener.Addr().String()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	c.Transport = tr
	return c
}

// Rule (every time bound is enforced against --timeout): MaxNIP05Lookups
// profiles whose domains never answer cost one timeout in all, not one per
// MaxNIP05Parallel of them (four), and a lookup the deadline cut short is
// not cached as an answer.
func TestNIP05ChecksOfAReadTakeAtMostOneTimeout(t *testing.T) {
	t.Parallel()
	client := hangingNIP05(t)
	profiles := map[string]Profile{}
	for i := range MaxNIP05Lookups {
		pk := fmt.Sprintf("%064x", i+1)
		profiles[pk] = Profile{Pubkey: pk, Name: "p", Claimed: fmt.Sprintf("p%d@example.com", i)}
	}
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	const timeout = 300 * time.Millisecond
	start := time.Now()
	got := verifyNIP05(context.Background(), &People{Fetch: true, HTTP: client, Timeout: timeout}, store, profiles, 1000)
	if took := time.Since(start); took > 2*timeout {
		t.Fatalf("%d lookups took %v with --timeout %v (want at most one timeout and slack)", MaxNIP05Lookups, took, timeout)
	}
	for pk, p := range got {
		if p.NIP05 != "" {
			t.Fatalf("%s verified against a domain that never answered", pk)
		}
		if _, ok, err := store.NIP05(p.Claimed); err != nil || ok {
			t.Fatalf("%s: a lookup cut short was cached (ok %v, err %v)", p.Claimed, ok, err)
		}
	}
}
