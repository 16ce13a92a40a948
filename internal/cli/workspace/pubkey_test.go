package workspace_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/render"
)

// docs/architecture.md "Command-line contract": "Pubkeys are accepted as
// npub or 64-hex everywhere."
func TestWorkspacePubkeyAcceptsNpubAndHex(t *testing.T) {
	t.Parallel()
	hex := strings.Repeat("ab", 32)
	npub := render.WsPerson(hex, "").Npub
	for _, in := range []string{hex, strings.ToUpper(hex), npub, " " + npub + " "} {
		if got, err := gitstate.DecodePubkey(in); err != nil || got != hex {
			t.Errorf("%q -> %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "npub1xyz", hex[:62], "nsec1" + npub[5:]} {
		if _, err := gitstate.DecodePubkey(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
