package projects

import (
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
)

// ErrIdentity marks a kind 30621 event that is not a usable Project identity.
var ErrIdentity = errors.New("invalid project identity")

// Identity is an owner-signed kind 30621 Project identity.
type Identity struct {
	Coordinate Coordinate
	EventID    string
	CreatedAt  nostr.Timestamp
	Document   Document
}

// ParseIdentity verifies a kind 30621 event (id, signature, kind) and reads
// its NIP-MP tags. The signer is the Project owner by construction.
func ParseIdentity(evt *nostr.Event) (Identity, error) {
	if evt == nil || evt.Kind != KindIdentity {
		return Identity{}, fmt.Errorf("%w: not a kind %d event", ErrIdentity, KindIdentity)
	}
	if err := verifyEvent(evt); err != nil {
		return Identity{}, fmt.Errorf("%w: %v", ErrIdentity, err)
	}
	doc, err := ParseDocument(tagsOf(evt))
	if err != nil {
		return Identity{}, fmt.Errorf("%w: %v", ErrIdentity, err)
	}
	c := Coordinate{Owner: evt.PubKey, D: doc.D}
	if err := c.Validate(); err != nil {
		return Identity{}, fmt.Errorf("%w: %v", ErrIdentity, err)
	}
	return Identity{Coordinate: c, EventID: evt.ID, CreatedAt: evt.CreatedAt, Document: doc}, nil
}

// verifyEvent checks the id is the hash of the event and the signature is valid.
func verifyEvent(evt *nostr.Event) error {
	if evt.ID != evt.GetID() {
		return errors.New("event id does not match its content")
	}
	ok, err := evt.CheckSignature()
	if err != nil || !ok {
		return errors.New("bad signature")
	}
	return nil
}

// tagsOf returns evt's tags as plain string slices.
func tagsOf(evt *nostr.Event) [][]string {
	out := make([][]string, len(evt.Tags))
	for i, t := range evt.Tags {
		out[i] = []string(t)
	}
	return out
}
