package cache

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestRelayInfoKeepsSelfAndNormalizesURL(t *testing.T) {
	c, _ := openTemp(t)
	doc := json.RawMessage(`{"name":"dev","self":"` + alicePK + `","supported_nips":[1,11,42]}`)
	if err := c.PutRelayInfo("wss://Relay.Example.com/", doc, time.Unix(1700000000, 0)); err != nil {
		t.Fatal(err)
	}
	info, ok, err := c.RelayInfo("wss://relay.example.com")
	if err != nil || !ok {
		t.Fatalf("lookup: %v %v", ok, err)
	}
	if info.Self != alicePK || info.FetchedAt != 1700000000 || info.URL != "wss://relay.example.com" || !strings.Contains(string(info.Document), "supported_nips") {
		t.Fatalf("got %+v", info)
	}
	if _, ok, _ := c.RelayInfo("wss://other.example"); ok {
		t.Fatal("unknown relay reported as cached")
	}
}

func TestRelayInfoIgnoresInvalidSelf(t *testing.T) {
	c, _ := openTemp(t)
	for i, self := range []string{`"npub1abc"`, `"` + alicePK[:60] + `"`, `"` + strings.ToUpper(alicePK) + `"`, `42`} {
		u := "ws://127.0.0.1:" + string(rune('1'+i))
		if err := c.PutRelayInfo(u, json.RawMessage(`{"self":`+self+`}`), time.Unix(1, 0)); err != nil {
			t.Fatal(err)
		}
		info, ok, err := c.RelayInfo(u)
		if err != nil || !ok || info.Self != "" {
			t.Fatalf("self %s: got %+v %v %v", self, info, ok, err)
		}
	}
	if err := c.PutRelayInfo("wss://r", json.RawMessage(`[1,2]`), time.Unix(1, 0)); err == nil {
		t.Fatal("a non-object document was accepted")
	}
	if err := c.PutRelayInfo("https://r", json.RawMessage(`{}`), time.Unix(1, 0)); err == nil {
		t.Fatal("a non-websocket URL was accepted")
	}
}
