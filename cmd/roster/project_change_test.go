package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/project"
	"github.com/roster-cli/roster/workspace/projects"
)

// Rule (errors name the next command, and who may run it): a refused
// related-channel change names the exact `roster project relate` command
// for the project owner, which the owner then runs as printed.
func TestProjectRefusalNamesTheOwnersCommandRunnableAsPrinted(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome})
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup) // the channel's roles are readable: roster refuses itself
	r := w.As(clitest.PcAdminSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--json")
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if r.Code != cmdutil.ExitRefused || e.Error.Code != "not-authorized" || len(e.Error.Commands) == 0 {
		t.Fatalf("exit %d: %s %s", r.Code, r.Out, r.Err)
	}
	want := "roster project relate " + w.Coord.String() + " " + clitest.PcChanA + " --relay " + w.Relay.URL() + "  # run by the project owner " + gitstate.EncodeNpub(w.Coord.Owner)
	if e.Error.Commands[0] != want {
		t.Fatalf("first command %q, want %q", e.Error.Commands[0], want)
	}
	cmd, _, _ := strings.Cut(e.Error.Commands[0], "  #")
	args := strings.Fields(strings.TrimPrefix(cmd, "roster "))
	args = args[:len(args)-2] // w.as adds --relay itself
	if r := w.As(clitest.PcOwnerSK, args...); r.Code != cmdutil.ExitOK {
		t.Fatalf("the owner running %q: exit %d\n%s%s", cmd, r.Code, r.Out, r.Err)
	}
	if st := w.Stored(); !st.Document.Related(clitest.PcChanA) {
		t.Fatalf("relay holds %+v", st)
	}
}

// Rule: a suggested project command is one shell word per argument, even
// when the project's d contains a space or a quote.
func TestProjectChangeCommandsQuoteTheCoordinate(t *testing.T) {
	t.Parallel()
	c := projects.Coordinate{Owner: strings.Repeat("ab", 32), D: "it's mine"}
	p := projects.Patch{Add: []string{clitest.PcChanA}, Remove: []string{clitest.PcHome}}
	got := strings.Join(project.ProjectChangeCommands(c, p, "ws://r", "x"), "\n")
	coord := `'30621:` + strings.Repeat("ab", 32) + `:it'\''s mine'`
	want := "roster project relate " + coord + " " + clitest.PcChanA + " --relay ws://r  # x\n" +
		"roster project unrelate " + coord + " " + clitest.PcHome + " --relay ws://r  # x"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// Rule (output reads as what it is): a group created without a name shows
// a dash, not a blank followed by its state.
func TestGroupShowUnnamedGroup(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	r := w.As(clitest.PcOwnerSK, "group", "show", clitest.PcHome)
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "  name     - (live)\n") {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}
