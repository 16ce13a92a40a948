package gitstate

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// MaxNIP05Relays bounds the relays one NIP-05 document can add to a read:
// the first MaxNIP05Relays distinct relay URLs it lists for the pubkey
// (the 32-relay bound every relay source shares, discovery.MaxWriteRelays).
// A document is the domain's to write, and each relay listed is one more
// dial within --timeout.
const MaxNIP05Relays = 32

// ResolveNIP05 looks name ("bob@example.com", or "example.com" for
// "_@example.com") up at https://<domain>/.well-known/nostr.json?name=<local>
// and returns the pubkey and the relays the document lists for it (the
// first MaxNIP05Relays distinct ones). Redirects
// are not followed (NIP-05). client may be nil (http.DefaultClient); tests pass
// one whose transport points at an httptest server.
func ResolveNIP05(ctx context.Context, name string, client *http.Client) (pubkey string, relays []string, err error) {
	full, ok := nip05Name(name)
	if !ok {
		return "", nil, fmt.Errorf("%q is not a NIP-05 name (want name@domain)", short(name))
	}
	local, domain, _ := strings.Cut(full, "@")
	if client == nil {
		client = http.DefaultClient
	}
	noRedirect := *client
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	u := "https://" + domain + "/.well-known/nostr.json?name=" + url.QueryEscape(local)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", nil, fmt.Errorf("NIP-05 %s: %v", full, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := noRedirect.Do(req)
	if err != nil {
		return "", nil, fmt.Errorf("NIP-05 %s: cannot reach %s: %v; pass --repo with an npub or naddr instead", full, domain, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", nil, fmt.Errorf("NIP-05 %s: %s answered HTTP %d; pass --repo with an npub or naddr instead", full, domain, resp.StatusCode)
	}
	var doc struct {
		Names  map[string]string   `json:"names"`
		Relays map[string][]string `json:"relays"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&doc); err != nil {
		return "", nil, fmt.Errorf("NIP-05 %s: %s returned invalid JSON: %v", full, domain, err)
	}
	pk, ok := doc.Names[local]
	if !ok {
		return "", nil, fmt.Errorf("NIP-05 %s: %s does not list the name %q", full, domain, local)
	}
	if !nostr.IsValid32ByteHex(pk) || pk != strings.ToLower(pk) {
		return "", nil, fmt.Errorf("NIP-05 %s: %s lists %q, which is not a 64-hex lowercase pubkey", full, domain, short(pk))
	}
	for _, r := range doc.Relays[pk] {
		if len(relays) == MaxNIP05Relays {
			break
		}
		if n, ok := normalizeRelay(r); ok {
			relays = appendUnique(relays, n)
		}
	}
	return pk, relays, nil
}
