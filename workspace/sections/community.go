package sections

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// CanonicalCommunity turns a relay URL (or bare host[:port]) into the
// canonical relay authority bound into every label's AAD: lowercase host,
// default port dropped (80 for ws/http, 443 for wss/https), trailing dot and
// slash removed, IPv6 literals bracketed.
func CanonicalCommunity(relay string) (string, error) {
	raw := strings.TrimSpace(relay)
	if raw == "" {
		return "", fmt.Errorf("community: empty relay address")
	}
	if !strings.Contains(raw, "://") {
		raw = "wss://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("community: %q is not a relay URL: %w", relay, err)
	}
	if u.User != nil {
		return "", fmt.Errorf("community: %q carries credentials", relay)
	}
	if p := strings.TrimRight(u.Path, "/"); p != "" {
		return "", fmt.Errorf("community: %q has a path; the community is the relay authority only", relay)
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return "", fmt.Errorf("community: %q has no host", relay)
	}
	port := u.Port()
	switch strings.ToLower(u.Scheme) {
	case "ws", "http":
		if port == "80" {
			port = ""
		}
	case "wss", "https":
		if port == "443" {
			port = ""
		}
	default:
		return "", fmt.Errorf("community: unsupported scheme %q in %q", u.Scheme, relay)
	}
	if ip := net.ParseIP(host); ip != nil && ip.To4() == nil {
		host = "[" + ip.String() + "]"
	}
	if port != "" {
		return host + ":" + port, nil
	}
	return host, nil
}
