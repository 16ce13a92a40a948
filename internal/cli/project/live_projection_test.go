package project_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/clitest"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/projects"
)

// Rule (nip-pc.md: every newly signed projection has a created_at greater
// than the last): a change that commits while `project show` waits for the
// relay's answer reaches the read live, beside the older projection the
// relay had already found. The read is the newer projection, not an
// ambiguous answer (which made a write's read-back exit 6 when a
// collaborator's change landed during it).
func TestAProjectionArrivingLiveDuringTheReadSupersedesTheOlderOne(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	queried := make(chan struct{})
	var once sync.Once
	// The relay finds the stored projection (revision 1), then holds it
	// and its EOSE back; the change commits in that window.
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{DelayREQ: func(_ int, f nostr.Filter) time.Duration {
		if !slices.Contains(f.Kinds, projects.KindState) {
			return 0
		}
		once.Do(func() { close(queried) })
		return time.Second
	}})
	done := make(chan clitest.Result, 1)
	go func() { done <- w.As(clitest.PcOwnerSK, "project", "show", w.Coord.String(), "--json") }()
	select {
	case <-queried:
	case <-time.After(20 * time.Second):
		t.Fatal("project show never asked for the projection")
	}
	w.RelateFirst(clitest.PcChanA, nostr.Now())
	r := <-done
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s %s", r.Code, r.Out, r.Err)
	}
	out := clitest.DecodeOut[report.Project](t, r)
	if out.Revision != 2 || !slices.Contains(out.RelatedChannels, clitest.PcChanA) {
		t.Fatalf("revision %d, related %v: want revision 2 with the change that arrived live", out.Revision, out.RelatedChannels)
	}
}
