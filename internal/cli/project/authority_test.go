package project_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
)

// NIP-29's 39000 and 39001 are optional. A relay that does not serve them
// leaves roster unable to verify the home channel's roles: roster says so
// and submits, and the relay, the authority, decides. Here it accepts an
// admin whose role it knows but does not publish.
func TestProjectChangeWithoutGroupStateLetsTheRelayDecide(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome})
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{Withhold: func(e *nostr.Event) bool { return e.Kind == 39000 || e.Kind == 39001 }})

	r := w.As(clitest.PcAdminSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d %s %s", r.Code, r.Out, r.Err)
	}
	out := clitest.DecodeOut[report.ProjectChange](t, r)
	if out.Schema != "roster.project.change/v2" || out.Authority.Basis != "unverifiable" ||
		!strings.Contains(out.Authority.Note, "cannot verify the home channel's roles") || !strings.Contains(out.Authority.Note, "kind 39000") {
		t.Fatalf("authority %+v", out.Authority)
	}
	if !w.Stored().Document.Related(clitest.PcChanA) || w.StoredCommands() != 1 {
		t.Fatal("the relay did not commit the admin's change")
	}
	// Human output says so on stderr.
	text := w.As(clitest.PcAdminSK, "project", "unrelate", w.Coord.String(), clitest.PcChanA)
	if text.Code != cmdutil.ExitOK || !strings.Contains(text.Err, "note: cannot verify the home channel's roles") {
		t.Fatalf("exit %d\n%s", text.Code, text.Err)
	}
}

// When roster cannot verify and the relay refuses (restricted:), the
// refusal is the relay's verdict: exit 3, nothing committed, and the
// commands say who may (the owner's change, the channel's roles).
func TestProjectChangeUnverifiableAndRefusedByTheRelay(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome}) // no such group on the relay
	r := w.As(clitest.PcStrangerSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--json")
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if r.Code != cmdutil.ExitRefused || e.Error.Code != "relay-rejected" || e.Error.Details["prefix"] != "restricted" ||
		!strings.Contains(e.Error.Message, "cannot verify the home channel's roles") {
		t.Fatalf("exit %d %s", r.Code, r.Out)
	}
	cmds := strings.Join(e.Error.Commands, "\n")
	if !strings.Contains(cmds, "roster project relate "+w.Coord.String()+" "+clitest.PcChanA) || !strings.Contains(cmds, "roster group show "+clitest.PcHome) {
		t.Fatalf("commands %s", cmds)
	}
	if w.StoredCommands() != 0 || w.Stored().Document.Related(clitest.PcChanA) {
		t.Fatal("a refused change was committed")
	}
}

// A home channel whose 39000 says archived "true" grants nothing, and
// roster refuses before signing; an archived tag with any other value is
// not an archive (as Buzz reads it), so the channel's admin may.
func TestProjectArchivedHomeChannelOnlyWhenTrue(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		value string
		code  int
	}{{"false", cmdutil.ExitOK}, {"true", cmdutil.ExitRefused}} {
		w := clitest.NewPCWorld(t)
		w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome})
		w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
		w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
		w.Group(clitest.PcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "Home"}, nostr.Tag{"archived", c.value})
		r := w.As(clitest.PcAdminSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--json")
		if r.Code != c.code {
			t.Fatalf("archived=%s: exit %d %s", c.value, r.Code, r.Out)
		}
		if c.code == cmdutil.ExitRefused {
			if e := clitest.DecodeOut[clitest.ErrorOut](t, r); e.Error.Code != "not-authorized" || !strings.Contains(e.Error.Message, "archived or deleted") {
				t.Fatalf("archived=true: %s", r.Out)
			}
			if w.StoredCommands() != 0 {
				t.Fatal("signed and submitted despite the archived channel")
			}
		} else if out := clitest.DecodeOut[report.ProjectChange](t, r); out.Authority.Basis != "home-channel-role" {
			t.Fatalf("archived=false: authority %+v", out.Authority)
		}
	}
}
