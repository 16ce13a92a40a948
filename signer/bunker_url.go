package signer

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// BunkerURL is a parsed NIP-46 bunker://<remote-signer-pubkey>?relay=...&secret=...
type BunkerURL struct {
	// RemotePubkey is the remote signer's 64-hex key (not necessarily the user's).
	RemotePubkey string
	Relays       []string
	// Secret is the optional one-time connection secret. It is sent once, in
	// "connect", and never stored or printed.
	Secret string
}

// ParseBunkerURL parses a bunker:// URL. Errors never repeat the input, which
// may carry the connection secret.
func ParseBunkerURL(s string) (BunkerURL, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return BunkerURL{}, errors.New("bunker URL does not parse; expected bunker://<64-hex pubkey>?relay=wss://...")
	}
	if u.Scheme != "bunker" {
		return BunkerURL{}, errors.New("bunker URL must start with bunker://")
	}
	pk := strings.ToLower(u.Host)
	if !nostr.IsValidPublicKey(pk) {
		return BunkerURL{}, errors.New("bunker URL must name the remote signer as 64 hex characters after bunker://")
	}
	q := u.Query()
	var relays []string
	for _, r := range q["relay"] {
		r = strings.TrimSpace(r)
		ru, err := url.Parse(r)
		if err != nil || (ru.Scheme != "ws" && ru.Scheme != "wss") || ru.Host == "" {
			return BunkerURL{}, fmt.Errorf("bunker URL relay %q is not a ws:// or wss:// URL", r)
		}
		relays = append(relays, r)
	}
	if len(relays) == 0 {
		return BunkerURL{}, errors.New("bunker URL names no relay=wss://... parameter")
	}
	return BunkerURL{RemotePubkey: pk, Relays: relays, Secret: q.Get("secret")}, nil
}

// Redacted returns the URL without its secret: the form roster records and prints.
func (b BunkerURL) Redacted() string {
	var sb strings.Builder
	sb.WriteString("bunker://")
	sb.WriteString(b.RemotePubkey)
	for i, r := range b.Relays {
		if i == 0 {
			sb.WriteString("?")
		} else {
			sb.WriteString("&")
		}
		sb.WriteString("relay=")
		sb.WriteString(url.QueryEscape(r))
	}
	return sb.String()
}
