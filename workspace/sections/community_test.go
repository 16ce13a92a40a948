package sections

import "testing"

// "Community = canonical relay authority (lowercase host, default port
// dropped, trailing slash and dot removed, IPv6 bracketed)".
func TestCanonicalCommunity(t *testing.T) {
	for in, want := range map[string]string{
		"wss://relay.example":          "relay.example",
		"wss://Relay.EXAMPLE/":         "relay.example",
		"wss://relay.example.:443/":    "relay.example",
		"ws://relay.example:80":        "relay.example",
		"wss://relay.example:80":       "relay.example:80",
		"ws://relay.example:443":       "relay.example:443",
		"ws://127.0.0.1:7447":          "127.0.0.1:7447",
		"ws://[::1]:7447/":             "[::1]:7447",
		"wss://[2001:DB8::0001]":       "[2001:db8::1]",
		"relay.example":                "relay.example",
		"https://relay.example:443///": "relay.example",
	} {
		got, err := CanonicalCommunity(in)
		if err != nil || got != want {
			t.Errorf("%q -> %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "ftp://relay.example", "wss://relay.example/path", "wss://user:pw@relay.example", "wss://:443"} {
		if got, err := CanonicalCommunity(bad); err == nil {
			t.Errorf("%q accepted as %q", bad, got)
		}
	}
}
