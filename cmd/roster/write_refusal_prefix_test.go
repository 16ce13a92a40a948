package main

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/workspace/sections"
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
	{"conflict: another change committed first", exitRefused, "conflict"},
	{"rate-limited: slow down", exitIncomplete, "rate-limited"},
	{"restricted: not for you", exitRefused, "relay-rejected"},
}

func TestWorkspaceWriteMapsOKPrefixesToExitCodes(t *testing.T) {
	t.Parallel()
	for _, c := range okPrefixCases {
		w := importedWorld(t)
		before := w.stored().Revision
		w.relay.SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(e *nostr.Event) string {
			if e.Kind == sections.KindGrant {
				return c.reason
			}
			return ""
		}})
		r := w.as(swOwnerSK, "workspace", "grant", w.npub(swViewerSK), "--json")
		if e := decodeOut[errorOut](t, r); r.Code != c.exit || e.Error.Code != c.code {
			t.Errorf("%q: exit %d code %s, want %d %s", c.reason, r.Code, e.Error.Code, c.exit, c.code)
		}
		if w.stored().Revision != before {
			t.Errorf("%q: the refused grant changed the workspace", c.reason)
		}
	}
}

func TestProjectWritesMapOKPrefixesToExitCodes(t *testing.T) {
	t.Parallel()
	for _, c := range okPrefixCases {
		for _, write := range [][]string{
			{"project", "relate", "<coord>", pcChanA},
			{"project", "update", "<coord>", "--name", "New"},
			{"project", "create", "other", "--name", "Other"},
		} {
			w := newPCWorld(t)
			w.identity(nostr.Now() - 10)
			before := w.stored().Revision
			w.relay.SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(*nostr.Event) string { return c.reason }})
			args := append([]string(nil), write...)
			if args[2] == "<coord>" {
				args[2] = w.coord.String()
			}
			r := w.as(pcOwnerSK, append(args, "--json")...)
			if e := decodeOut[errorOut](t, r); r.Code != c.exit || e.Error.Code != c.code {
				t.Errorf("%v, %q: exit %d code %s, want %d %s", write[:2], c.reason, r.Code, e.Error.Code, c.exit, c.code)
			}
			if w.stored().Revision != before || w.storedCommands() != 0 {
				t.Errorf("%v, %q: the refused write changed the project", write[:2], c.reason)
			}
		}
	}
}
