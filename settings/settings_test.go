package settings

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// Rule: the home is --home, else ROSTER_HOME, else the XDG cache directory
// (XDG_CACHE_HOME, else ~/.cache); a home that is a file is refused.
func TestHomePrecedence(t *testing.T) {
	for _, c := range []struct {
		flag string
		env  map[string]string
		want string
	}{
		{"/f", map[string]string{"ROSTER_HOME": "/r", "XDG_CACHE_HOME": "/x"}, "/f"},
		{"", map[string]string{"ROSTER_HOME": "/r", "XDG_CACHE_HOME": "/x"}, "/r"},
		{"", map[string]string{"XDG_CACHE_HOME": "/x", "HOME": "/h"}, "/x/roster"},
		{"", map[string]string{"HOME": "/h"}, "/h/.cache/roster"},
	} {
		if got, err := Home(c.flag, env(c.env)); err != nil || got != c.want {
			t.Errorf("Home(%q, %v) = %q, %v; want %q", c.flag, c.env, got, err, c.want)
		}
	}
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Home(file, env(nil)); err == nil {
		t.Fatal("a home that is a file was accepted")
	}
}

// Rule: the default relays are --relay, else ROSTER_RELAYS (comma
// separated, blanks dropped), else config.yaml's.
func TestRelaysPrecedence(t *testing.T) {
	cfg := Config{Relays: []string{"wss://cfg"}}
	if got := Relays([]string{"wss://flag"}, env(map[string]string{"ROSTER_RELAYS": "wss://env"}), cfg); !slices.Equal(got, []string{"wss://flag"}) {
		t.Errorf("flags: %v", got)
	}
	if got := Relays(nil, env(map[string]string{"ROSTER_RELAYS": " wss://a , ,wss://b"}), cfg); !slices.Equal(got, []string{"wss://a", "wss://b"}) {
		t.Errorf("env: %v", got)
	}
	if got := Relays(nil, env(nil), cfg); !slices.Equal(got, cfg.Relays) {
		t.Errorf("config: %v", got)
	}
}

// Rule: a config.yaml with an unknown key is refused, naming the file.
func TestConfigWithAnUnknownKeyIsRefused(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ConfigFile), []byte("relay: [wss://typo]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(home)
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Path != filepath.Join(home, ConfigFile) || ce.Unreadable {
		t.Fatalf("%v", err)
	}
	if cfg, err := Load(t.TempDir()); err != nil || cfg.Relays != nil {
		t.Fatalf("a missing file: %v %v", cfg, err)
	}
}

// Rule: a relay value is a ws:// or wss:// URL with a host, or a shorthand
// host[:port]; anything else is refused, never dropped or mangled.
func TestRelayValuesAreWebsocketURLsWithAHost(t *testing.T) {
	for _, ok := range []string{"wss://relay.example", "ws://127.0.0.1:7777", "relay.example", "127.0.0.1:7777", "localhost:1", "WSS://Relay.Example/path"} {
		if err := CheckRelay(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"not a url", "ws://", "wss://", "ftp://x", "http://x", "", " "} {
		if err := CheckRelay(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if err := CheckRelays("ROSTER_RELAYS", strings.Split(" , ", ",")); err == nil || !strings.Contains(err.Error(), "names no relay") {
		t.Errorf("ROSTER_RELAYS=' , ': %v", err)
	}
}
