package devrelay

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// NIP-11 plus `self`: the relay's own pubkey (used by workspaces).
func TestNIP11PublishesSelf(t *testing.T) {
	r := start(t, Options{SecretKey: testKey("relay")})
	req, _ := http.NewRequest("GET", "http"+strings.TrimPrefix(r.URL(), "ws"), nil)
	req.Header.Set("Accept", "application/nostr+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc["self"] != testPub("relay") || r.Self() != testPub("relay") {
		t.Fatalf("self = %v, want %s", doc["self"], testPub("relay"))
	}
	if resp.Header.Get("Content-Type") != "application/nostr+json" {
		t.Errorf("content type %q", resp.Header.Get("Content-Type"))
	}
}

// NIP-42: with RequireAuth, REQ gets CLOSED and EVENT gets OK false, both
// with the auth-required: prefix, until the connection authenticates.
func TestRequireAuthRefusesUnauthenticatedREQAndEVENT(t *testing.T) {
	r := start(t, Options{RequireAuth: true})
	_ = r.Publish(sign(t, "alice", 1, 100, "seeded"))
	anon := connect(t, r, "")
	evs, reason := query(t, anon, nostr.Filter{Kinds: []int{1}})
	if len(evs) != 0 || !strings.HasPrefix(reason, "auth-required:") {
		t.Fatalf("unauthenticated REQ: %d events, CLOSED %q", len(evs), reason)
	}
	err := anon.Publish(context.Background(), *sign(t, "alice", 1, 101, "x"))
	if err == nil || !strings.Contains(err.Error(), "auth-required:") {
		t.Fatalf("unauthenticated EVENT: %v", err)
	}
	authed := connect(t, r, "bob")
	evs, reason = query(t, authed, nostr.Filter{Kinds: []int{1}})
	if len(evs) != 1 || reason != "" {
		t.Fatalf("authenticated REQ: %d events, CLOSED %q", len(evs), reason)
	}
	if err := authed.Publish(context.Background(), *sign(t, "alice", 1, 102, "y")); err != nil {
		t.Fatalf("authenticated EVENT: %v", err)
	}
}

func TestStopRefusesConnectionsAndStartComesBackWithTheSameData(t *testing.T) {
	r := start(t, Options{})
	note := sign(t, "alice", 1, 100, "kept")
	_ = r.Publish(note)
	c := connect(t, r, "")
	url := r.URL()
	r.Stop()
	host := strings.TrimPrefix(url, "ws://")
	if conn, err := net.DialTimeout("tcp", host, time.Second); err == nil {
		conn.Close()
		t.Fatal("a stopped relay still accepts connections")
	}
	eventually(t, "the client to see its connection closed", func() bool { return !c.IsConnected() })
	if r.Connections() != 0 {
		t.Fatalf("%d connections after Stop", r.Connections())
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	if r.URL() != url {
		t.Fatalf("restarted on %s, want %s", r.URL(), url)
	}
	evs, _ := query(t, connect(t, r, ""), nostr.Filter{IDs: []string{note.ID}})
	if len(evs) != 1 {
		t.Fatal("stored events must survive Stop/Start")
	}
}

func TestReqCountCountsREQsNotFilters(t *testing.T) {
	r := start(t, Options{})
	c := connect(t, r, "")
	query(t, c, nostr.Filter{Kinds: []int{1}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	sub, err := c.Subscribe(ctx, nostr.Filters{{Kinds: []int{1}}, {Kinds: []int{2}}, {Kinds: []int{3}}})
	if err != nil {
		t.Fatal(err)
	}
	<-sub.EndOfStoredEvents
	sub.Unsub()
	if n := r.ReqCount(); n != 2 {
		t.Fatalf("ReqCount = %d, want 2", n)
	}
}

// Requests records each REQ's filters, one entry per REQ in arrival order,
// and EventCount counts the EVENTs clients published, accepted or refused.
func TestRequestsRecordEachREQsFiltersAndEventCountCountsPublishes(t *testing.T) {
	r := start(t, Options{Misbehave: Misbehaviour{RefuseEvent: func(e *nostr.Event) string {
		if e.Content == "refused" {
			return "blocked: no"
		}
		return ""
	}}})
	c := connect(t, r, "")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, content := range []string{"kept", "refused"} {
		_ = c.Publish(ctx, *sign(t, "alice", 1, 100, content))
	}
	query(t, c, nostr.Filter{Kinds: []int{1}})
	sub, err := c.Subscribe(ctx, nostr.Filters{{Kinds: []int{2}}, {IDs: []string{strings.Repeat("ab", 32)}}})
	if err != nil {
		t.Fatal(err)
	}
	<-sub.EndOfStoredEvents
	sub.Unsub()
	got := r.Requests()
	if len(got) != 2 || len(got[0]) != 1 || len(got[1]) != 2 ||
		!nostr.FilterEqual(got[0][0], nostr.Filter{Kinds: []int{1}}) ||
		!nostr.FilterEqual(got[1][0], nostr.Filter{Kinds: []int{2}}) || len(got[1][1].IDs) != 1 {
		t.Fatalf("Requests = %v, want [[{kinds:[1]}] [{kinds:[2]} {ids:[...]}]]", got)
	}
	if n := r.EventCount(); n != 2 {
		t.Fatalf("EventCount = %d, want 2 (one accepted, one refused)", n)
	}
}

// Close "really closes everything": connections, listener, per-REQ
// goroutines. khatru's hourly expiration ticker is the one goroutine khatru
// gives no way to stop.
func TestCloseReleasesGoroutinesAndConnections(t *testing.T) {
	before := runtime.NumGoroutine()
	r, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	r.SetSlow(time.Hour) // a REQ left waiting for its EOSE
	c, err := nostr.RelayConnect(context.Background(), r.URL())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Subscribe(context.Background(), nostr.Filters{{Kinds: []int{1}}}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the REQ to arrive", func() bool { return r.ReqCount() == 1 })
	r.Close()
	eventually(t, "the client to be disconnected", func() bool { return !c.IsConnected() })
	const khatruTicker = 1
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+khatruTicker {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
	if r.Connections() != 0 {
		t.Fatalf("%d connections after Close", r.Connections())
	}
}
