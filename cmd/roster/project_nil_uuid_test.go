package main

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// One UUID rule (workspace/channelid): the nil UUID names no channel, so it
// is refused as a related channel or a home channel before anything is
// signed, and the relay is left as it was.
func TestProjectNilUUIDIsNeverAChannel(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now() - 10)
	before := w.stored().Revision
	const nilUUID = "00000000-0000-0000-0000-000000000000"
	for _, args := range [][]string{
		{"project", "relate", w.coord.String(), nilUUID},
		{"project", "unrelate", w.coord.String(), nilUUID},
		{"project", "update", w.coord.String(), "--home-channel", nilUUID},
	} {
		r := w.as(pcOwnerSK, append(args, "--json")...)
		if e := decodeOut[errorOut](t, r); r.Code != cmdutil.ExitUsage || !strings.Contains(e.Error.Message, "nil UUID") {
			t.Errorf("%v: exit %d %s", args[:2], r.Code, r.Out)
		}
	}
	if w.stored().Revision != before || w.storedCommands() != 0 {
		t.Fatal("a refused nil channel reached the relay")
	}
}
