package clitest

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/render"
)

// StoredKind is every event of kind by sk's key the relay stored.
func (w *PcWorld) StoredKind(kind int, by string) []*nostr.Event {
	return w.Relay.Stored(nostr.Filter{Kinds: []int{kind}, Authors: []string{by}})
}

func (w *PcWorld) NpubOf(sk string) string { return render.WsPerson(PubOf(w.T, sk), "").Npub }
