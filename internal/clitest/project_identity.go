package clitest

import "github.com/nbd-wtf/go-nostr"

// StoredIdentity is the relay's current kind 30621 of the world's project,
// as the projection names it.
func (w *PcWorld) StoredIdentity() *nostr.Event {
	w.T.Helper()
	st := w.Stored()
	evs := w.Relay.Stored(nostr.Filter{IDs: []string{st.IdentityEvent}})
	if len(evs) != 1 {
		w.T.Fatalf("the relay stores no identity %s", st.IdentityEvent)
	}
	return evs[0]
}
