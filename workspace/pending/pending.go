// Package pending keeps a signed NIP-SW import command on disk between
// attempts, so a retry after a lost answer sends the exact same event (same
// action id, key envelope, ciphertexts, id and signature) instead of a new
// one. It is not the cache: `roster cache clear` must not make a retry mint
// a second import, so the files live in the data directory (with the
// login's), outside the cache directory.
package pending

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// Dir stores one pending import per (community, owner) under Root.
type Dir struct{ Root string }

// Path is where the pending import of owner's workspace in community lives:
// <root>/nip-sw/<community>/<owner>/import.json.
func (d Dir) Path(community, owner string) string {
	return filepath.Join(d.Root, "nip-sw", safe(community), safe(owner), "import.json")
}

// Pending returns the stored import event, or nil when none is stored. A
// file that does not hold a validly signed event is an error: it is never
// sent.
func (d Dir) Pending(community, owner string) (*nostr.Event, error) {
	p := d.Path(community, owner)
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var evt nostr.Event
	if err := json.Unmarshal(b, &evt); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if ok, err := evt.CheckSignature(); !ok || err != nil || !evt.CheckID() {
		return nil, fmt.Errorf("%s does not hold a validly signed event", p)
	}
	return &evt, nil
}

// Keep stores evt (mode 0600, directories 0700: it carries the owner's key
// envelope) atomically: a crash leaves the old file or the new one.
func (d Dir) Keep(community, owner string, evt *nostr.Event) error {
	p := d.Path(community, owner)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(evt)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".import-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

// Drop removes the stored import (none stored is not an error).
func (d Dir) Drop(community, owner string) error {
	err := os.Remove(d.Path(community, owner))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// safe keeps a path element to [a-z0-9.-]: a community is host[:port] and
// ':' is not portable in file names.
func safe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, strings.ToLower(s))
}
