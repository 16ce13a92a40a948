package gitstate

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// nip05Server serves /.well-known/nostr.json over TLS and returns a client
// whose transport sends every host to it, so names keep real-looking domains.
func nip05Server(t *testing.T, handler http.HandlerFunc) *http.Client {
	t.Helper()
	srv := httptest.NewTLSServer(handler)
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	tr := &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, // the test server's own certificate
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
	}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

func wellKnown(t *testing.T, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/nostr.json" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(strings.ReplaceAll(body, "NAME", r.URL.Query().Get("name"))))
	}
}

func TestResolveNIP05FindsPubkeyAndRelays(t *testing.T) {
	var gotHost, gotName string
	client := nip05Server(t, func(w http.ResponseWriter, r *http.Request) {
		gotHost, gotName = r.Host, r.URL.Query().Get("name")
		wellKnown(t, `{"names":{"bob":"`+bobPK+`"},"relays":{"`+bobPK+`":["relay.bob.example","wss://r2.example/"]}}`)(w, r)
	})
	pk, relays, err := ResolveNIP05(context.Background(), "Bob@Example.com", client)
	if err != nil {
		t.Fatal(err)
	}
	if pk != bobPK || !reflect.DeepEqual(relays, []string{"wss://relay.bob.example", "wss://r2.example"}) {
		t.Fatalf("got %s %v", pk, relays)
	}
	if gotHost != "example.com" || gotName != "bob" {
		t.Fatalf("asked host %q name %q, want example.com and bob", gotHost, gotName)
	}
}

func TestResolveNIP05BareDomainAsksForUnderscore(t *testing.T) {
	client := nip05Server(t, wellKnown(t, `{"names":{"_":"`+alicePK+`"}}`))
	pk, _, err := ResolveNIP05(context.Background(), "example.com", client)
	if err != nil || pk != alicePK {
		t.Fatalf("got %q, %v", pk, err)
	}
}

func TestResolveNIP05Failures(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		wantErr string
	}{
		{"name not listed", wellKnown(t, `{"names":{"someone":"`+alicePK+`"}}`), "does not list"},
		{"pubkey not hex", wellKnown(t, `{"names":{"bob":"npub1xyz"}}`), "not a 64-hex"},
		{"uppercase pubkey", wellKnown(t, `{"names":{"bob":"`+strings.ToUpper(bobPK)+`"}}`), "not a 64-hex"},
		{"invalid json", wellKnown(t, `{"names":`), "invalid JSON"},
		{"http error", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", 404) }, "HTTP 404"},
		// NIP-05: fetchers MUST ignore HTTP redirects.
		{"redirect is not followed", func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/.well-known/nostr.json" {
				http.Redirect(w, r, "/elsewhere", http.StatusFound)
				return
			}
			wellKnown(t, `{"names":{"bob":"`+bobPK+`"}}`)(w, r)
		}, "HTTP 302"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := nip05Server(t, tt.handler)
			pk, _, err := ResolveNIP05(context.Background(), "bob@example.com", client)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got %q, %v; want error containing %q", pk, err, tt.wantErr)
			}
		})
	}
	if _, _, err := ResolveNIP05(context.Background(), "not a name", nil); err == nil {
		t.Fatal("an invalid name must fail before any request")
	}
}

func TestSelectionResolveFillsNIP05Pubkey(t *testing.T) {
	client := nip05Server(t, wellKnown(t, `{"names":{"bob":"`+bobPK+`"},"relays":{"`+bobPK+`":["wss://from-nip05.example"]}}`))
	sel, err := ResolveWithoutCheckout("nostr://bob@example.com/relay.hint/my-repo")
	if err != nil {
		t.Fatal(err)
	}
	if !sel.NeedsNIP05() || sel.Coordinate.Pubkey != "" {
		t.Fatalf("selection %+v should still need NIP-05", sel)
	}
	sel, err = sel.Resolve(context.Background(), client)
	if err != nil {
		t.Fatal(err)
	}
	if sel.Coordinate != coord(bobPK, "my-repo") || sel.NeedsNIP05() {
		t.Fatalf("resolved to %+v", sel)
	}
	if !reflect.DeepEqual(sel.Relays, []string{"wss://relay.hint", "wss://from-nip05.example"}) {
		t.Fatalf("relays %v", sel.Relays)
	}
}

// Rule (every relay source shares the 32-relay bound): a NIP-05 document
// listing 2,001 relays for the pubkey gives the first MaxNIP05Relays
// distinct ones, in its order.
func TestResolveNIP05KeepsAtMostMaxNIP05Relays(t *testing.T) {
	var list []string
	list = append(list, `"wss://r0.example"`, `"wss://r0.example/"`) // one relay twice
	for i := 1; i <= 2000; i++ {
		list = append(list, `"wss://r`+strconv.Itoa(i)+`.example"`)
	}
	client := nip05Server(t, wellKnown(t, `{"names":{"bob":"`+bobPK+`"},"relays":{"`+bobPK+`":[`+strings.Join(list, ",")+`]}}`))
	_, relays, err := ResolveNIP05(context.Background(), "bob@example.com", client)
	if err != nil {
		t.Fatal(err)
	}
	if len(relays) != MaxNIP05Relays || relays[0] != "wss://r0.example" || relays[1] != "wss://r1.example" || relays[MaxNIP05Relays-1] != "wss://r31.example" {
		t.Fatalf("%d relays: %v", len(relays), relays)
	}
}
