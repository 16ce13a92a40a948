package sections

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// buzzProjection is the fixture's projection as Buzz's relay addresses it:
// d=<owner>:<reader>, one p tag per given reader, no role tags.
func buzzProjection(t *testing.T, relay testKey, d string, ps ...string) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: KindProjection, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"d", d}}, Content: string(fixtureProjection(t))}
	for _, p := range ps {
		evt.Tags = append(evt.Tags, nostr.Tag{"p", p})
	}
	if err := evt.Sign(relay.sk); err != nil {
		t.Fatal(err)
	}
	return evt
}

// Buzz's relay signs d=<owner>:<reader>. It is read only as the projection
// of the reader named after the colon, who must be p-tagged; the same event
// is refused for anyone else, for a forged signer, and by the NIP-SW-only
// check (no reader given).
func TestVerifyProjectionReadsBuzzOwnerReaderAddressForThatReaderOnly(t *testing.T) {
	p, _ := DecodeProjection(fixtureProjection(t))
	owner := p.OwnerPubkey
	relay, forger := newKey(t), newKey(t)
	viewer, other := strings.Repeat("4", 64), strings.Repeat("5", 64)

	own := buzzProjection(t, relay, BuzzD(owner, owner), owner)
	v, err := VerifyProjectionFor(own, relay.pk, owner, owner)
	if err != nil || v.Readers[owner] != RoleOwner {
		t.Fatalf("owner's Buzz-shaped projection: %v", err)
	}
	if _, err := VerifyProjection(own, relay.pk, owner); rule(err) != "projection-owner" {
		t.Errorf("the NIP-SW-only check accepted d=owner:reader: %v", err)
	}
	granted := buzzProjection(t, relay, BuzzD(owner, viewer), owner, viewer)
	if v, err := VerifyProjectionFor(granted, relay.pk, owner, viewer); err != nil || v.Readers[viewer] != RoleReader {
		t.Errorf("viewer's Buzz-shaped projection: %v", err)
	}
	for name, c := range map[string]struct {
		evt    *nostr.Event
		reader string
		rule   string
	}{
		"another reader's copy":    {granted, other, "projection-reader"},
		"the owner reads a viewer": {granted, owner, "projection-reader"},
		"reader not p-tagged":      {buzzProjection(t, relay, BuzzD(owner, viewer), owner), viewer, "projection-reader"},
		"forged signer":            {buzzProjection(t, forger, BuzzD(owner, owner), owner), owner, "projection-signer"},
		"another owner":            {buzzProjection(t, relay, BuzzD(other, owner), owner), owner, "projection-owner"},
	} {
		if _, err := VerifyProjectionFor(c.evt, relay.pk, owner, c.reader); rule(err) != c.rule {
			t.Errorf("%s: %v, want %s", name, err, c.rule)
		}
	}
}
