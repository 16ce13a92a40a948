package project_test

import (
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/internal/cli/project"
)

// A project coordinate takes its owner as an npub too (30621:npub1…:d),
// since an npub is what people have; the hex form and an naddr still work.
func TestAProjectCoordinateTakesAnNpubOwner(t *testing.T) {
	t.Parallel()
	hex := clitest.PubOf(t, clitest.PcOwnerSK)
	npub, _ := nip19.EncodePublicKey(hex)
	for _, arg := range []string{"30621:" + npub + ":widgets", "30621:" + hex + ":widgets"} {
		c, _, err := project.ProjectParseArg(arg)
		if err != nil || c.Owner != hex || c.D != "widgets" {
			t.Errorf("%s: %+v %v", arg, c, err)
		}
	}
	if _, _, err := project.ProjectParseArg("30621:npub1notakey:widgets"); err == nil {
		t.Error("a broken npub must be refused")
	}
}
