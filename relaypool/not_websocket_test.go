package relaypool

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// A URL whose server answers the websocket handshake with plain HTTP (a web
// page, a 404) is a web server, not a relay: the report says so in plain
// words, and the library's error stays reachable with errors.As/Unwrap.
func TestWebServerInsteadOfRelayIsNamedPlainly(t *testing.T) {
	for _, status := range []int{http.StatusOK, http.StatusNotFound} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(status)
			_, _ = w.Write([]byte("<html>a web page</html>"))
		}))
		url := "ws" + strings.TrimPrefix(srv.URL, "http")
		p := New(Options{Timeout: 5 * time.Second})
		res := p.Fetch(context.Background(), []string{url}, nostr.Filter{Kinds: []int{1}})
		want := "answered HTTP " + strconv.Itoa(status) + ", not a websocket: is this a relay URL?"
		if len(res.Relays) != 1 || res.Relays[0].Status != StatusFailed || res.Relays[0].Reason != want {
			t.Errorf("HTTP %d: %+v, want reason %q", status, res.Relays, want)
		}
		pub := p.Publish(context.Background(), []string{url}, &nostr.Event{Kind: 1})
		if len(pub) != 1 || !strings.Contains(pub[0].Message, want) {
			t.Errorf("HTTP %d publish: %+v", status, pub)
		}
		_, err := dial(context.Background(), url)
		var nw *NotWebsocketError
		if !errors.As(err, &nw) || nw.Status != status || !strings.Contains(errors.Unwrap(err).Error(), "101") {
			t.Errorf("HTTP %d: dial error %T %v", status, err, err)
		}
		p.Close()
		srv.Close()
	}
}

// An address nothing listens at, or a host name that does not resolve, is
// reported in plain words (not the websocket library's chain of dial
// errors); the library's error stays reachable with Unwrap.
func TestUnreachableRelayIsNamedPlainly(t *testing.T) {
	// Port 1: nothing listens there, and no listener asking for a free
	// port is given it (a port just closed can be another test's next).
	closed := "ws://127.0.0.1:1"
	for url, want := range map[string]string{
		closed:                    "connection refused: nothing listens at this address",
		"ws://nosuchhost.invalid": "no such host: the relay's host name does not resolve",
	} {
		p := New(Options{Timeout: 5 * time.Second})
		res := p.Fetch(context.Background(), []string{url}, nostr.Filter{Kinds: []int{1}})
		if len(res.Relays) != 1 || res.Relays[0].Status != StatusFailed || !strings.HasPrefix(res.Relays[0].Reason, want) {
			t.Errorf("%s: %+v, want reason %q", url, res.Relays, want)
		}
		_, err := dial(context.Background(), url)
		var ue *UnreachableError
		if !errors.As(err, &ue) || errors.Unwrap(err) == nil {
			t.Errorf("%s: dial error %T %v", url, err, err)
		}
	}
}
