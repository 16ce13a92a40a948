// Package relayurl is roster's one reading of a relay URL, whoever supplied
// it: `--relay`, ROSTER_RELAYS, config.yaml, a coordinate's relay hints and
// the URLs events name (an announcement's `relays` tag, a NIP-65 `r` tag).
// A value is either a relay roster will dial, returned normalized, or an
// error saying what is wrong with it; nothing is dropped or mangled on the
// way (`ws//host:7777` is not the host "ws", `ws://host:` has no port).
//
// It imports the standard library and go-nostr (for the normalized form
// every relay list compares by).
package relayurl

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/nbd-wtf/go-nostr"
)

// MaxBytes bounds one relay URL: longer values are not relay URLs anyone
// dials, and a command would carry them in every message it prints.
const MaxBytes = 256

// Form says which spellings a caller accepts.
type Form int

const (
	// Explicit requires the ws:// or wss:// scheme: URLs taken from events
	// are untrusted and nothing is guessed for them.
	Explicit Form = iota
	// Shorthand also accepts host[:port][/path] without a scheme, as people
	// type relays and NIP-34 relay hints are written: wss://, or ws:// for
	// localhost and 127.0.0.1.
	Shorthand
)

// Parse checks raw and returns it normalized (lower-case scheme and host,
// no trailing slash). A relay URL has the ws or wss scheme (or, in the
// Shorthand form, none), a host, at most a port (digits, 1 to 65535; a
// colon with nothing after it is refused) and a path; no user information,
// query or fragment, no space or control character, at most MaxBytes.
func Parse(raw string, form Form) (string, error) {
	v := raw
	if form == Shorthand {
		// Typed by a person: surrounding blanks are not part of it. An
		// event's URL is taken as it is.
		v = strings.TrimSpace(raw)
	}
	switch {
	case v == "":
		return "", fmt.Errorf("it is empty")
	case len(v) > MaxBytes:
		return "", fmt.Errorf("it is longer than %d bytes", MaxBytes)
	case strings.IndexFunc(v, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == unicode.ReplacementChar
	}) >= 0:
		return "", fmt.Errorf("it contains a space, control or format character")
	}
	scheme, rest, ok := strings.Cut(v, "://")
	if ok {
		scheme = strings.ToLower(scheme)
		if scheme != "ws" && scheme != "wss" {
			return "", fmt.Errorf("a relay speaks ws:// or wss://, not %s://", scheme)
		}
	} else {
		if form == Explicit {
			return "", fmt.Errorf("it names no scheme (ws:// or wss://)")
		}
		// A scheme typed without "://" (ws//host, wss:host, ws:/host) is a
		// typo, not a host called "ws".
		lower := strings.ToLower(v)
		for _, s := range []string{"wss", "ws"} {
			if tail, found := strings.CutPrefix(lower, s); found && (strings.HasPrefix(tail, ":") || strings.HasPrefix(tail, "/")) {
				return "", fmt.Errorf("its scheme is misspelt: write %s://", s)
			}
		}
		scheme, rest = "wss", v
		host := rest
		if i := strings.IndexAny(host, "/"); i >= 0 {
			host = host[:i]
		}
		if h, _, _ := strings.Cut(host, ":"); h == "localhost" || h == "127.0.0.1" || strings.HasPrefix(host, "[::1]") {
			scheme = "ws"
		}
	}
	u, err := url.Parse(scheme + "://" + rest)
	switch {
	case err != nil:
		return "", fmt.Errorf("it is not a URL")
	case u.User != nil || strings.Contains(rest[:hostEnd(rest)], "@"):
		return "", fmt.Errorf("it carries user information")
	case u.Hostname() == "" || u.Opaque != "":
		return "", fmt.Errorf("it names no host (ws://host[:port] or wss://host)")
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(rest, "#"):
		return "", fmt.Errorf("it carries a query or fragment")
	case strings.HasPrefix(u.Path, "//"):
		return "", fmt.Errorf("its path starts with //")
	}
	if strings.HasSuffix(u.Host, ":") {
		return "", fmt.Errorf("its port is empty (a colon with no number after it)")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 || strings.HasPrefix(p, "+") {
			return "", fmt.Errorf("its port %q is not a port (1 to 65535)", p)
		}
	}
	n := nostr.NormalizeURL(scheme + "://" + rest)
	if !strings.HasPrefix(n, "ws://") && !strings.HasPrefix(n, "wss://") {
		return "", fmt.Errorf("it does not normalize to a ws:// or wss:// URL")
	}
	if back, err := url.Parse(n); err != nil || back.Hostname() != strings.ToLower(u.Hostname()) || back.Port() != u.Port() {
		return "", fmt.Errorf("it does not normalize to the same host and port")
	}
	return n, nil
}

// hostEnd is where the authority of rest (after "scheme://") ends.
func hostEnd(rest string) int {
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		return i
	}
	return len(rest)
}

// Error is a relay value that is not a relay URL, with where it came from.
type Error struct {
	// Where names the setting or the event ("--relay", "ROSTER_RELAYS").
	Where string
	Value string
	Why   string
}

func (e *Error) Error() string {
	if e.Where == "" {
		return fmt.Sprintf("%q is not a relay URL: %s", e.Value, e.Why)
	}
	return fmt.Sprintf("%s: %q is not a relay URL: %s", e.Where, e.Value, e.Why)
}
