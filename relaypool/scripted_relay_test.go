package relaypool_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

// scriptedRelay is a relay that misbehaves on purpose, which devrelay (a
// correct relay) cannot: for each REQ it sends the messages script returns,
// given the REQ's subscription id, then keeps the connection open.
func scriptedRelay(t *testing.T, script func(subID string) []string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		for {
			_, msg, err := c.Read(ctx)
			if err != nil {
				return
			}
			var req []json.RawMessage
			if json.Unmarshal(msg, &req) != nil || len(req) < 2 || string(req[0]) != `"REQ"` {
				continue
			}
			var subID string
			_ = json.Unmarshal(req[1], &subID)
			for _, out := range script(subID) {
				if c.Write(ctx, websocket.MessageText, []byte(out)) != nil {
					return
				}
			}
		}
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

func eventMsg(t *testing.T, subID string, evt any) string {
	t.Helper()
	raw, err := json.Marshal([]any{"EVENT", subID, evt})
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func eoseMsg(subID string) string { return `["EOSE",` + mustJSON(subID) + `]` }

func mustJSON(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}
