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
// A document read once is kept for the pool's life (one command): a
// failure is not kept, so a later call asks again.
func (p *Pool) RelayInfo(ctx context.Context, url string) (*RelayInfo, error) {
	ws := nostr.NormalizeURL(url)
	if ws == "" {
		return nil, fmt.Errorf("%q is not a relay URL", url)
	}
	p.mu.Lock()
	known := p.infos[ws]
	p.mu.Unlock()
	if known != nil {
		c := *known
		return &c, nil
	}
	info, err := p.fetchRelayInfo(ctx, ws)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if p.infos == nil {
		p.infos = map[string]*RelayInfo{}
	}
	p.infos[ws] = info
	p.mu.Unlock()
	c := *info
	return &c, nil
}

// fetchRelayInfo asks ws's HTTP(S) endpoint for its NIP-11 document.
func (p *Pool) fetchRelayInfo(ctx context.Context, ws string) (*RelayInfo, error) {
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

// parseRelayInfo reads the fields roster uses, one by one: a relay that
// publishes one odd field (a string where a number belongs) still yields
// everything else, `self` included.
func parseRelayInfo(url string, body []byte) (*RelayInfo, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("relay information from %s is not a JSON object: %w", url, err)
	}
	info := &RelayInfo{URL: url, Raw: json.RawMessage(body)}
	field := func(key string, dst any) { _ = json.Unmarshal(doc[key], dst) }
	field("name", &info.Name)
	field("description", &info.Description)
	field("pubkey", &info.PubKey)
	field("contact", &info.Contact)
	field("software", &info.Software)
	field("version", &info.Version)
	var self string
	field("self", &self)
	if self = strings.ToLower(self); nostr.IsValid32ByteHex(self) {
		info.Self = self
	}
	var nips []any
	field("supported_nips", &nips)
	for _, n := range nips {
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
	if raw, ok := doc["limitation"]; ok {
		var lim map[string]json.RawMessage
		if json.Unmarshal(raw, &lim) == nil {
			l := &RelayLimits{}
			_ = json.Unmarshal(lim["auth_required"], &l.AuthRequired)
			_ = json.Unmarshal(lim["payment_required"], &l.PaymentRequired)
			_ = json.Unmarshal(lim["restricted_writes"], &l.RestrictedWrites)
			_ = json.Unmarshal(lim["max_subscriptions"], &l.MaxSubscriptions)
			_ = json.Unmarshal(lim["max_limit"], &l.MaxLimit)
			info.Limitation = l
		}
	}
	return info, nil
}
