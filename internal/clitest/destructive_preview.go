package clitest

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/grouprelay"
)

// HomeWorld is a project world whose home channel pcHome exists, created
// by creator (its owner) with the home-channel admin as admin.
func HomeWorld(t *testing.T, creator string) *PcWorld {
	t.Helper()
	w := NewPCWorld(t)
	w.Group(creator, grouprelay.KindCreateGroup)
	w.Group(creator, grouprelay.KindEditMetadata, nostr.Tag{"name", "roster-home"})
	w.Group(creator, grouprelay.KindPutUser, nostr.Tag{"p", PubOf(t, PcAdminSK), "admin"})
	return w
}
