// Package pending keeps a signed NIP-SW import command on disk between
// attempts, so a retry after a lost answer sends the exact same event (same
// action id, key envelope, ciphertexts, id and signature) instead of a new
// one. It is an entry of the journal of unfinished writes (package journal,
// `<data dir>/journal`), the same one every repository write keeps its
// signed events in, so `roster pending` lists it beside them. It is not the
// cache: `roster cache clear` must not make a retry mint a second import,
// so the files live in the data directory (with the login's), outside the
// cache directory.
package pending

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/journal"
)

// Dir stores one pending import per (community, owner) in the journal of
// the data directory Root.
type Dir struct {
	Root string
	// Relay is the relay the import is sent to, kept in the entry so that
	// `roster pending resume` knows where to retry ("" when unknown).
	Relay string
}

func (d Dir) journal() *journal.Dir { return journal.Open(d.Root) }

// Address is the journal address of owner's workspace import in community.
func Address(community, owner string) string {
	return "nip-sw:" + strings.ToLower(community) + ":" + strings.ToLower(owner)
}

// legacyPath is where earlier versions kept the pending import:
// <root>/nip-sw/<community>/<owner>/import.json. It is still read (and
// moved into the journal by the next Keep or Drop).
func (d Dir) legacyPath(community, owner string) string {
	return filepath.Join(d.Root, "nip-sw", safe(community), safe(owner), "import.json")
}

// Path is the file that keeps the pending import of owner's workspace in
// community: its journal entry when there is one, else the file earlier
// versions wrote.
func (d Dir) Path(community, owner string) string {
	addr := Address(community, owner)
	j := d.journal()
	if writes, _, err := j.List(); err == nil {
		for _, w := range writes {
			if w.Touches("", addr) {
				return j.File(w.ID, 0)
			}
		}
	}
	return d.legacyPath(community, owner)
}

// Pending returns the stored import event, or nil when none is stored. A
// journal file of this import that does not hold a validly signed event is
// an error: it is never sent.
func (d Dir) Pending(community, owner string) (*nostr.Event, error) {
	addr := Address(community, owner)
	writes, problems, err := d.journal().List()
	if err != nil {
		return nil, err
	}
	for _, w := range writes {
		if w.Touches("", addr) {
			return w.First().Event, nil
		}
	}
	for _, p := range problems {
		if p.Address == addr {
			return nil, fmt.Errorf("%s: %w", p.File, p.Err)
		}
	}
	return d.legacy(community, owner)
}

func (d Dir) legacy(community, owner string) (*nostr.Event, error) {
	p := d.legacyPath(community, owner)
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
// envelope) durably before it is sent, replacing the import kept before
// for the same workspace.
func (d Dir) Keep(community, owner string, evt *nostr.Event) error {
	if err := d.Drop(community, owner); err != nil {
		return err
	}
	var relays []string
	cmd := []string{"workspace", "import"}
	if d.Relay != "" {
		relays = []string{d.Relay}
		cmd = append(cmd, "--relay", d.Relay)
	}
	return d.journal().Begin([]journal.Entry{{
		Pipeline: journal.PipelineWorkspace, Command: cmd, Relays: relays,
		Repo: Address(community, owner), Address: Address(community, owner), Event: evt,
		Verify: journal.Verification{What: "the workspace's migration marker reads back (NIP-SW exact retry: the same event is sent again)"},
	}})
}

// Drop removes the stored import (none stored is not an error).
func (d Dir) Drop(community, owner string) error {
	addr := Address(community, owner)
	j := d.journal()
	writes, _, err := j.List()
	if err != nil {
		return err
	}
	for _, w := range writes {
		if w.Touches("", addr) {
			if err := j.Finish(w.ID); err != nil {
				return err
			}
		}
	}
	err = os.Remove(d.legacyPath(community, owner))
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
