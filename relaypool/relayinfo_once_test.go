package relaypool_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/roster-cli/roster/relaypool"
)

// Rule (bound what a relay costs a command): a relay's NIP-11 document is
// asked for once per pool, however many reconnects, re-reads and
// verifications need it; a failed answer is not kept, so the next need
// asks again.
func TestARelaysInformationDocumentIsAskedForOncePerCommand(t *testing.T) {
	var asked atomic.Int32
	var fail atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		if fail.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/nostr+json")
		_, _ = w.Write([]byte(`{"name":"once","supported_nips":[1,11]}`))
	}))
	defer srv.Close()
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		info, err := p.RelayInfo(ctx, url)
		if err != nil || info.Name != "once" {
			t.Fatalf("read %d: %+v, %v", i, info, err)
		}
		info.Name = "changed by a caller"
	}
	if n := asked.Load(); n != 1 {
		t.Fatalf("three reads asked the relay %d times, want 1", n)
	}
	other := relaypool.New(relaypool.Options{})
	defer other.Close()
	fail.Store(true)
	for i := 0; i < 2; i++ {
		if _, err := other.RelayInfo(ctx, url); err == nil {
			t.Fatal("a failing relay's document read succeeded")
		}
	}
	if n := asked.Load(); n != 3 {
		t.Fatalf("after two failed reads the relay was asked %d times in all, want 3", n)
	}
}
