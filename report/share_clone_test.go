package report

import (
	"testing"

	"github.com/roster-cli/roster/graph"
)

// The share's clone line names the first advertised URL git can clone
// from another machine: nostr:// URLs and paths on the author's machine
// are skipped; with none left the invitee pastes only the accept command.
func TestShareCloneLineSkipsURLsNobodyElseCanCloneFrom(t *testing.T) {
	c := graph.NewCoordinate("aa"+"00000000000000000000000000000000000000000000000000000000000000", "my repo")
	s := ShareOf(c, "wss://relay.example").WithClone(c, []string{"nostr://npub1x/r", "/srv/r.git", "ssh://git@host.example/o/r.git"})
	if s.CloneURL != "ssh://git@host.example/o/r.git" || len(s.Paste) != 2 ||
		s.Paste[0] != "git clone ssh://git@host.example/o/r.git 'my repo'" || s.Paste[1] != "cd 'my repo' && "+s.AcceptCommand {
		t.Fatalf("share %+v", s)
	}
	none := ShareOf(c, "").WithClone(c, []string{"./here.git"})
	if none.CloneURL != "" || len(none.Paste) != 1 || none.Paste[0] != none.AcceptCommand {
		t.Fatalf("share without a fetchable URL %+v", none)
	}
}
