package cache

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// The people bucket remembers what roster learned about the people it
// shows beyond their events: when their kind 0 profile was last asked for
// (so a warm read does not ask again, and a person with no profile is not
// asked on every read) and what a NIP-05 lookup answered. The profiles
// themselves are ordinary verified events in the events bucket.

// ProfileChecked records that the relays were asked for these pubkeys'
// profiles at unix time at, whether or not they had one.
func (c *Cache) ProfileChecked(at int64, pubkeys ...string) error {
	if len(pubkeys) == 0 {
		return nil
	}
	var t [8]byte
	binary.BigEndian.PutUint64(t[:], uint64(at))
	return c.write(int64(len(pubkeys))*64, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketPeople)
		for _, pk := range pubkeys {
			if err := b.Put([]byte("checked:"+pk), t[:]); err != nil {
				return err
			}
		}
		return nil
	})
}

// ProfileCheckedAt is when the relays were last asked for pubkey's
// profile (0: never).
func (c *Cache) ProfileCheckedAt(pubkey string) (int64, error) {
	var at int64
	err := c.view(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketPeople).Get([]byte("checked:" + pubkey)); len(v) == 8 {
			at = int64(binary.BigEndian.Uint64(v))
		}
		return nil
	})
	return at, err
}

// NIP05Check is what one NIP-05 lookup answered: the pubkey the domain
// lists for the name ("" when the lookup failed or listed none) and when.
type NIP05Check struct {
	Pubkey    string `json:"pubkey"`
	CheckedAt int64  `json:"checked_at"`
}

// PutNIP05 records a lookup of name (name@domain, lowercased).
func (c *Cache) PutNIP05(name string, check NIP05Check) error {
	if name == "" {
		return errors.New("NIP-05 name is empty")
	}
	raw, err := json.Marshal(check)
	if err != nil {
		return err
	}
	return c.write(int64(len(raw))+64, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketPeople).Put([]byte("nip05:"+strings.ToLower(name)), raw)
	})
}

// NIP05 returns the last recorded lookup of name, if any.
func (c *Cache) NIP05(name string) (NIP05Check, bool, error) {
	var out NIP05Check
	found := false
	err := c.view(func(tx *bolt.Tx) error {
		raw := tx.Bucket(bucketPeople).Get([]byte("nip05:" + strings.ToLower(name)))
		if raw == nil {
			return nil
		}
		found = true
		return json.Unmarshal(raw, &out)
	})
	return out, found, err
}
