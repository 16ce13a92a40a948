package cache

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	bolt "go.etcd.io/bbolt"
)

// RelayInfo is a relay's cached NIP-11 document.
type RelayInfo struct {
	URL string `json:"url"`
	// Self is the document's "self" pubkey (64-hex) when it names a valid
	// one: the key a relay signs relay-authoritative state with.
	Self      string          `json:"self,omitempty"`
	Document  json.RawMessage `json:"document"`
	FetchedAt int64           `json:"fetched_at"`
}

// PutRelayInfo caches the NIP-11 document a relay served at fetchedAt. doc
// must be a JSON object (relaypool.RelayInfo.Raw); a "self" that is not a
// 64-hex pubkey is kept in the document but not exposed as Self.
func (c *Cache) PutRelayInfo(relayURL string, doc json.RawMessage, fetchedAt time.Time) error {
	key, err := relayKey(relayURL)
	if err != nil {
		return err
	}
	var fields struct {
		Self string `json:"self"`
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(doc, &obj); err != nil {
		return fmt.Errorf("NIP-11 document of %s is not a JSON object: %v", relayURL, err)
	}
	_ = json.Unmarshal(doc, &fields) // a non-string self just leaves Self empty
	info := RelayInfo{URL: key, Document: append(json.RawMessage(nil), doc...), FetchedAt: fetchedAt.Unix()}
	// Lowercase 64-hex only, exactly as relaypool reads it, so cached and
	// live answers agree.
	if nostr.IsValid32ByteHex(fields.Self) {
		info.Self = fields.Self
	}
	raw, err := json.Marshal(info)
	if err != nil {
		return err
	}
	return c.write(int64(len(raw))+entryOverhead, func(tx *bolt.Tx) error { return tx.Bucket(bucketRelays).Put([]byte(key), raw) })
}

// RelayInfo returns the cached document for a relay and whether there is one.
func (c *Cache) RelayInfo(relayURL string) (RelayInfo, bool, error) {
	key, err := relayKey(relayURL)
	if err != nil {
		return RelayInfo{}, false, err
	}
	var info RelayInfo
	found := false
	err = c.view(func(tx *bolt.Tx) error {
		raw := tx.Bucket(bucketRelays).Get([]byte(key))
		if raw == nil {
			return nil
		}
		found = true
		return json.Unmarshal(raw, &info)
	})
	return info, found, err
}

// relayKey normalizes a relay URL so "wss://Relay.example/" and
// "wss://relay.example" share one entry.
func relayKey(relayURL string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(relayURL))
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		return "", fmt.Errorf("%q is not a ws:// or wss:// relay URL", relayURL)
	}
	u.Host = strings.ToLower(u.Host)
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath, u.Fragment, u.RawFragment = "", "", ""
	return u.String(), nil
}
