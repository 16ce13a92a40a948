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

// Rule: --home, else ROSTER_HOME, is the one directory for everything;
// else config, data and cache are the XDG directories (each variable, when
// absolute, else its ~ default); the old single home was the cache
// directory; a directory that is a file is refused.
func TestDirsPrecedence(t *testing.T) {
	one := func(h string) Dirs { return Dirs{Config: h, Data: h, Cache: h, Home: h} }
	xdg := func(c, d, k string) Dirs { return Dirs{Config: c, Data: d, Cache: k, Legacy: k} }
	for _, c := range []struct {
		flag string
		env  map[string]string
		want Dirs
	}{
		{"/f", map[string]string{"ROSTER_HOME": "/r", "XDG_CACHE_HOME": "/x"}, one("/f")},
		{"", map[string]string{"ROSTER_HOME": "/r", "XDG_CACHE_HOME": "/x"}, one("/r")},
		{"", map[string]string{"HOME": "/h"}, xdg("/h/.config/roster", "/h/.local/share/roster", "/h/.cache/roster")},
		{"", map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d", "XDG_CACHE_HOME": "/x"},
			xdg("/c/roster", "/d/roster", "/x/roster")},
		{"", map[string]string{"HOME": "/h", "XDG_DATA_HOME": "relative"}, xdg("/h/.config/roster", "/h/.local/share/roster", "/h/.cache/roster")},
		{"", map[string]string{"XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d", "XDG_CACHE_HOME": "/x"}, xdg("/c/roster", "/d/roster", "/x/roster")},
		{"", map[string]string{"USERPROFILE": "/u"}, xdg("/u/.config/roster", "/u/.local/share/roster", "/u/.cache/roster")},
	} {
		if got, err := Locate(c.flag, env(c.env)); err != nil || got != c.want {
			t.Errorf("Locate(%q, %v) = %+v, %v; want %+v", c.flag, c.env, got, err, c.want)
		}
	}
	if _, err := Locate("", env(map[string]string{"XDG_CONFIG_HOME": "/c"})); err == nil || !strings.Contains(err.Error(), "ROSTER_HOME") {
		t.Errorf("no HOME and no XDG_DATA_HOME: %v", err)
	}
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Locate(file, env(nil)); err == nil {
		t.Fatal("a home that is a file was accepted")
	}
	base := filepath.Dir(file)
	if err := os.MkdirAll(filepath.Join(base, "data"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "data", "roster"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Locate("", env(map[string]string{"HOME": base, "XDG_DATA_HOME": filepath.Join(base, "data")})); err == nil {
		t.Fatal("a data directory that is a file was accepted")
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

// Rule (a typo must never silently drop the user's relays): a config.yaml
// that gives relays as one value, or in YAML roster does not read, is
// refused naming the file and the line; the list forms are read.
func TestConfigRelaysAreAListOrRefusedWithTheirLine(t *testing.T) {
	for body, want := range map[string]string{
		"relays: wss://one.example\n":                 "line 1: relays takes a list of values, like relays: [wss://one.example]",
		"# mine\nrelays: &r [wss://a.example]\n":      "line 2:",
		"relays:\n  - wss://a.example\n  nested: x\n": "line 3:",
	} {
		home := homeWithConfig(t, body)
		_, err := Load(home)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), filepath.Join(home, ConfigFile)) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want the file and %q", body, err, want)
		}
	}
	for body, want := range map[string][]string{
		"relays: [wss://a.example, 'wss://b.example']\n":      {"wss://a.example", "wss://b.example"},
		"---\nrelays:\n- wss://a.example # home\n- relay.b\n": {"wss://a.example", "relay.b"},
		"relays:\r\n  - wss://a.example\r\n":                  {"wss://a.example"},
		"# nothing yet\n":                                     nil,
	} {
		home := homeWithConfig(t, body)
		cfg, err := Load(home)
		if err != nil || !slices.Equal(cfg.Relays, want) {
			t.Errorf("%q: %v %v, want %v", body, cfg.Relays, err, want)
		}
	}
}

// homeWithConfig is a new config directory whose config.yaml holds body.
func homeWithConfig(t *testing.T, body string) string {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ConfigFile), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}
