package relaypool

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// RelayInfo is a relay's NIP-11 information document, with the `self` key
// (the relay's own pubkey) that go-nostr's nip11 type lacks. Plain JSON so
// the cache can store it.
type RelayInfo struct {
	URL           string          `json:"url"`
	Name          string          `json:"name,omitempty"`
	Description   string          `json:"description,omitempty"`
	PubKey        string          `json:"pubkey,omitempty"`
	Self          string          `json:"self,omitempty"`
	Contact       string          `json:"contact,omitempty"`
	SupportedNIPs []int           `json:"supported_nips,omitempty"`
	Software      string          `json:"software,omitempty"`
	Version       string          `json:"version,omitempty"`
	Limitation    *RelayLimits    `json:"limitation,omitempty"`
	Raw           json.RawMessage `json:"raw,omitempty"`
}

// RelayLimits is the part of NIP-11 `limitation` roster uses.
type RelayLimits struct {
	AuthRequired     bool `json:"auth_required,omitempty"`
	PaymentRequired  bool `json:"payment_required,omitempty"`
	RestrictedWrites bool `json:"restricted_writes,omitempty"`
	MaxSubscriptions int  `json:"max_subscriptions,omitempty"`
	MaxLimit         int  `json:"max_limit,omitempty"`
}

// maxInfoBytes bounds a NIP-11 document we are willing to read.
const maxInfoBytes = 1 << 20

// RelayInfo fetches url's NIP-11 document over HTTP(S) (ws:// becomes
// http://, wss:// becomes https://). `self` is kept only if it is 64 hex.
func (p *Pool) RelayInfo(ctx context.Context, url string) (*RelayInfo, error) {
	ws := nostr.NormalizeURL(url)
	if ws == "" {
		return nil, fmt.Errorf("%q is not a relay URL", url)
	}
	httpURL := "http" + strings.TrimPrefix(ws, "ws")
	ctx, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, httpURL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/nostr+json")
	resp, err := p.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("relay information from %s: %w", ws, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("relay information from %s: HTTP %s", ws, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxInfoBytes))
	if err != nil {
		return nil, fmt.Errorf("relay information from %s: %w", ws, err)
	}
	return parseRelayInfo(ws, body)
}

func parseRelayInfo(url string, body []byte) (*RelayInfo, error) {
	var doc struct {
		Name          string       `json:"name"`
		Description   string       `json:"description"`
		PubKey        string       `json:"pubkey"`
		Self          string       `json:"self"`
		Contact       string       `json:"contact"`
		SupportedNIPs []any        `json:"supported_nips"`
		Software      string       `json:"software"`
		Version       string       `json:"version"`
		Limitation    *RelayLimits `json:"limitation"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("relay information from %s is not JSON: %w", url, err)
	}
	info := &RelayInfo{
		URL: url, Name: doc.Name, Description: doc.Description, PubKey: doc.PubKey,
		Contact: doc.Contact, Software: doc.Software, Version: doc.Version,
		Limitation: doc.Limitation, Raw: json.RawMessage(body),
	}
	if nostr.IsValid32ByteHex(doc.Self) {
		info.Self = strings.ToLower(doc.Self)
	}
	for _, n := range doc.SupportedNIPs {
		// Relays publish numbers, sometimes as strings.
		switch v := n.(type) {
		case float64:
			info.SupportedNIPs = append(info.SupportedNIPs, int(v))
		case string:
			var x int
			if _, err := fmt.Sscanf(v, "%d", &x); err == nil {
				info.SupportedNIPs = append(info.SupportedNIPs, x)
			}
		}
	}
	return info, nil
}
