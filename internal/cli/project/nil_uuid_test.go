package project_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// One UUID rule (workspace/channelid): the nil UUID names no channel, so it
// is refused as a related channel or a home channel before anything is
// signed, and the relay is left as it was.
func TestProjectNilUUIDIsNeverAChannel(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	before := w.Stored().Revision
	const nilUUID = "00000000-0000-0000-0000-000000000000"
	for _, args := range [][]string{
		{"project", "relate", w.Coord.String(), nilUUID},
		{"project", "unrelate", w.Coord.String(), nilUUID},
		{"project", "update", w.Coord.String(), "--home-channel", nilUUID},
	} {
		r := w.As(clitest.PcOwnerSK, append(args, "--json")...)
		if e := clitest.DecodeOut[clitest.ErrorOut](t, r); r.Code != cmdutil.ExitUsage || !strings.Contains(e.Error.Message, "nil UUID") {
			t.Errorf("%v: exit %d %s", args[:2], r.Code, r.Out)
		}
	}
	if w.Stored().Revision != before || w.StoredCommands() != 0 {
		t.Fatal("a refused nil channel reached the relay")
	}
}
