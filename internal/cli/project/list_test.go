package project_test

import (
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/project"
	"github.com/roster-cli/roster/report"
)

// project list: the owner's projects (an npub accepted for --owner), and,
// for the signer, the projects whose home channel they administer; an
// outsider lists nothing; each naddr carries the relay as hint.
func TestProjectListOwnersAndHomeChannelAdmins(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome})
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
	if r := w.As(clitest.PcOwnerSK, "project", "create", "second", "--name", "Second"); r.Code != cmdutil.ExitOK {
		t.Fatalf("create: exit %d %s", r.Code, r.Err)
	}

	byNpub := clitest.DecodeOut[report.ProjectList](t, w.As(clitest.PcStrangerSK, "project", "list", "--owner", clitest.DemoNpubOf(t, clitest.PcOwnerSK), "--json"))
	if byNpub.Schema != "roster.project.list/v2" || len(byNpub.Projects) != 2 || !byNpub.Complete {
		t.Fatalf("owner's projects %+v", byNpub)
	}
	for _, p := range byNpub.Projects {
		c, hints, err := project.ProjectParseArg(p.Naddr)
		if err != nil || c.String() != p.Coordinate || len(hints) != 1 || hints[0] != w.Relay.URL() || !p.State || p.Why[0] != "owner" {
			t.Fatalf("listed %+v (%v %v)", p, hints, err)
		}
	}

	admin := clitest.DecodeOut[report.ProjectList](t, w.As(clitest.PcAdminSK, "project", "list", "--json"))
	if len(admin.Projects) != 1 || admin.Projects[0].Coordinate != w.Coord.String() || admin.Projects[0].Why[0] != "home-channel-admin" ||
		admin.Projects[0].HomeChannel == nil || *admin.Projects[0].HomeChannel != clitest.PcHome {
		t.Fatalf("admin's list %+v", admin.Projects)
	}
	mine := clitest.DecodeOut[report.ProjectList](t, w.As(clitest.PcOwnerSK, "project", "list", "--json"))
	if len(mine.Projects) != 2 || len(mine.Projects[0].Why)+len(mine.Projects[1].Why) != 3 { // the home channel's owner too
		t.Fatalf("owner's own list %+v", mine.Projects)
	}
	if out := clitest.DecodeOut[report.ProjectList](t, w.As(clitest.PcStrangerSK, "project", "list", "--json")); len(out.Projects) != 0 {
		t.Fatalf("outsider lists %+v", out.Projects)
	}
	if r := w.As(clitest.PcStrangerSK, "project", "list"); r.Code != cmdutil.ExitOK {
		t.Fatalf("text: exit %d %s", r.Code, r.Err)
	}
}
