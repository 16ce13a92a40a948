package relayurl

import (
	"strings"
	"testing"
)

// Rule: a relay value is either a relay roster dials, normalized, or
// refused saying why; a mistyped scheme or an empty port is never read as
// another host or as no port.
func TestParseAcceptsRelaysAndRefusesTypos(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		form Form
		want string // normalized; "" means refused
		why  string
	}{
		{"wss://Relay.Example.com/", Explicit, "wss://relay.example.com", ""},
		{"ws://127.0.0.1:7777", Explicit, "ws://127.0.0.1:7777", ""},
		{"WS://127.0.0.1:7777/sub/", Explicit, "ws://127.0.0.1:7777/sub", ""},
		{"relay.example.com", Shorthand, "wss://relay.example.com", ""},
		{"localhost:7777", Shorthand, "ws://localhost:7777", ""},
		{"127.0.0.1:7777", Shorthand, "ws://127.0.0.1:7777", ""},
		{"relay.example.com", Explicit, "", "names no scheme"},
		{"ws//127.0.0.1:7777", Shorthand, "", "scheme is misspelt: write ws://"},
		{"wss//relay.example.com", Shorthand, "", "scheme is misspelt: write wss://"},
		{"ws:/127.0.0.1:7777", Shorthand, "", "scheme is misspelt"},
		{"ws://127.0.0.1:", Shorthand, "", "port is empty"},
		{"ws://127.0.0.1:", Explicit, "", "port is empty"},
		{"127.0.0.1:", Shorthand, "", "port is empty"},
		{"ws://127.0.0.1:0", Explicit, "", "is not a port"},
		{"ws://127.0.0.1:70000", Explicit, "", "is not a port"},
		{"ws://127.0.0.1:x", Explicit, "", "not"},
		{"ws://", Explicit, "", "names no host"},
		{"ws:///path", Explicit, "", "names no host"},
		{"ftp://x", Shorthand, "", "not ftp://"},
		{"https://relay.example.com", Shorthand, "", "not https://"},
		{"wss://u:p@relay.example.com", Explicit, "", "user information"},
		{"wss://relay.example.com/?x=1", Explicit, "", "query or fragment"},
		{"wss://relay.example.com/#x", Explicit, "", "query or fragment"},
		{"wss://relay.example.com//x", Explicit, "", "path starts with //"},
		{"not a url", Shorthand, "", "space"},
		{"  ", Shorthand, "", "empty"},
		{"wss://" + strings.Repeat("a", MaxBytes) + ".com", Explicit, "", "longer than"},
	} {
		got, err := Parse(c.in, c.form)
		switch {
		case c.want != "" && (err != nil || got != c.want):
			t.Errorf("Parse(%q, %d) = %q, %v; want %q", c.in, c.form, got, err, c.want)
		case c.want == "" && (err == nil || !strings.Contains(err.Error(), c.why)):
			t.Errorf("Parse(%q, %d) = %q, %v; want refused saying %q", c.in, c.form, got, err, c.why)
		}
	}
}
