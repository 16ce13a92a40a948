package main

import (
	"slices"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/workspace/pending"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

// A relay's OK false to a workspace or project write is mapped by its
// NIP-01 prefix: conflict: and restricted: are refusals (exit 3), a
// rate-limited: relay asks to retry later (exit 4), and no write is taken
// as committed.
var okPrefixCases = []struct {
	reason string
	exit   int
	code   string
}{
	{"conflict: another change committed first", cmdutil.ExitRefused, "conflict"},
	{"rate-limited: slow down", cmdutil.ExitIncomplete, "rate-limited"},
	{"restricted: not for you", cmdutil.ExitRefused, "relay-rejected"},
}

func TestWorkspaceWriteMapsOKPrefixesToExitCodes(t *testing.T) {
	t.Parallel()
	ch := sectionstest.Load(t).Legacy(t).Channel
	for _, c := range okPrefixCases {
		w := clitest.ImportedWorld(t)
		w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwMoverSK), "--role", "mover")
		w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Beta")
		before := w.Stored().Revision
		w.Relay.SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(e *nostr.Event) string {
			if slices.Contains(sections.CommandKinds, e.Kind) {
				return c.reason
			}
			return ""
		}})
		for _, write := range [][]string{
			{"workspace", "grant", w.Npub(clitest.SwViewerSK)},
			{"workspace", "revoke", w.Npub(clitest.SwMoverSK)},
			{"workspace", "move", ch, "--to", "Beta"},
			{"workspace", "unassign", ch},
			{"workspace", "section", "add", "Gamma"},
			{"workspace", "section", "move", "Beta", "--to", "1"},
		} {
			r := w.As(clitest.SwOwnerSK, append(write, "--json")...)
			if e := clitest.DecodeOut[clitest.ErrorOut](t, r); r.Code != c.exit || e.Error.Code != c.code {
				t.Errorf("%v, %q: exit %d code %s, want %d %s", write[:2], c.reason, r.Code, e.Error.Code, c.exit, c.code)
			}
		}
		if w.Stored().Revision != before {
			t.Errorf("%q: a refused write changed the workspace", c.reason)
		}
		// An import the relay refuses committed nothing: the signed import
		// kept for a retry is dropped with it, except when the relay only
		// asks to retry later.
		fresh := clitest.NewSWWorld(t)
		fresh.PublishLegacy()
		fresh.Relay.SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(e *nostr.Event) string {
			if e.Kind == sections.KindImport {
				return c.reason
			}
			return ""
		}})
		r := fresh.As(clitest.SwOwnerSK, "workspace", "import", "--json")
		if e := clitest.DecodeOut[clitest.ErrorOut](t, r); r.Code != c.exit || e.Error.Code != c.code {
			t.Errorf("import, %q: exit %d code %s", c.reason, r.Code, e.Error.Code)
		}
		community, _ := sections.CanonicalCommunity(fresh.Relay.URL())
		evt, err := (pending.Dir{Root: fresh.Homes[clitest.SwOwnerSK]}).Pending(community, clitest.PubOf(t, clitest.SwOwnerSK))
		if kept := c.code == "rate-limited"; (evt != nil) != kept || err != nil {
			t.Errorf("import, %q: kept %v, want %v (%v)", c.reason, evt != nil, kept, err)
		}
	}
}

func TestProjectWritesMapOKPrefixesToExitCodes(t *testing.T) {
	t.Parallel()
	for _, c := range okPrefixCases {
		for _, write := range [][]string{
			{"project", "relate", "<coord>", clitest.PcChanA},
			{"project", "update", "<coord>", "--name", "New"},
			{"project", "create", "other", "--name", "Other"},
		} {
			w := clitest.NewPCWorld(t)
			w.Identity(nostr.Now() - 10)
			before := w.Stored().Revision
			w.Relay.SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(*nostr.Event) string { return c.reason }})
			args := append([]string(nil), write...)
			if args[2] == "<coord>" {
				args[2] = w.Coord.String()
			}
			r := w.As(clitest.PcOwnerSK, append(args, "--json")...)
			if e := clitest.DecodeOut[clitest.ErrorOut](t, r); r.Code != c.exit || e.Error.Code != c.code {
				t.Errorf("%v, %q: exit %d code %s, want %d %s", write[:2], c.reason, r.Code, e.Error.Code, c.exit, c.code)
			}
			if w.Stored().Revision != before || w.StoredCommands() != 0 {
				t.Errorf("%v, %q: the refused write changed the project", write[:2], c.reason)
			}
		}
	}
}
