package workspace_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/swrelay"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
	"github.com/roster-cli/roster/workspace/strictjson"
)

// buzzShape delivers the reference authority's projections the way Buzz's
// relay signs them: d=<owner>:<reader>, a p tag per reader, no role tags.
type buzzShape struct{ *swrelay.Authority }

func (b buzzShape) View(env devrelay.Env, reader string, evt *nostr.Event) *nostr.Event {
	if strings.Contains(evt.Tags.GetD(), ":") {
		return evt // already addressed to a reader (the test's SetExtra copies)
	}
	out := b.Authority.View(env, reader, evt)
	if out == nil || out.Kind != sections.KindProjection || out.PubKey != env.Self {
		return out
	}
	tags := nostr.Tags{{"d", sections.BuzzD(out.Tags.GetD(), reader)}}
	for _, t := range out.Tags {
		if len(t) >= 2 && t[0] == "p" {
			tags = append(tags, t)
		}
	}
	re := &nostr.Event{Kind: out.Kind, CreatedAt: out.CreatedAt, Tags: tags, Content: out.Content}
	if err := env.Sign(re); err != nil {
		return nil
	}
	return re
}

// roster reads Buzz's d=<owner>:<reader> projections (docs/workspaces.md):
// the owner and a grantee see their workspace through a relay that signs
// that shape, and write through it; a copy addressed to another reader (it
// does not even match the filter, and VerifyProjectionFor refuses it) or
// signed by anyone but the relay's self is never shown.
func TestWorkspaceReadsBuzzOwnerReaderProjections(t *testing.T) {
	t.Parallel()
	w := clitest.NewSWWorldWith(t, buzzShape{swrelay.New(swrelay.Options{})})
	w.PublishLegacy()
	imp := clitest.DecodeOut[report.WorkspaceImport](t, w.MustAs(clitest.SwOwnerSK, "workspace", "import", "--json"))
	if !imp.Switched || imp.Workspace.Revision != 1 {
		t.Fatalf("import through a Buzz-shaped relay %+v", imp)
	}
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwViewerSK))
	owner := clitest.PubOf(t, clitest.SwOwnerSK)
	lg := sectionstest.Load(t).Legacy(t)
	v := clitest.DecodeOut[report.Workspace](t, w.MustAs(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub(), "--json"))
	if v.Revision != 2 || v.Sections[0].Label != lg.Name || v.You.Role != "reader" || len(v.Rejected) != 0 {
		t.Fatalf("viewer's view %+v", v)
	}
	l := clitest.DecodeOut[report.WorkspaceList](t, w.MustAs(clitest.SwViewerSK, "workspace", "list", "--json"))
	if len(l.Workspaces) != 1 || l.Workspaces[0].Owner.Pubkey != owner || len(l.Rejected) != 0 {
		t.Fatalf("viewer's list %+v", l)
	}

	// The relay also serves the owner the viewer's copy (their envelope),
	// relay-signed and one revision ahead, and a forger serves a copy
	// addressed to the owner: neither is used.
	stored := w.Relay.Stored(nostr.Filter{Kinds: []int{sections.KindProjection}})[0]
	var p sections.Projection
	if err := strictjson.DecodeStrict([]byte(stored.Content), &p); err != nil {
		t.Fatal(err)
	}
	p.Revision++
	ahead, _ := strictjson.Canonical(&p)
	mk := func(sk, reader string) *nostr.Event {
		e := &nostr.Event{Kind: sections.KindProjection, CreatedAt: stored.CreatedAt + 5,
			Tags: nostr.Tags{{"d", sections.BuzzD(owner, reader)}, {"p", owner}, {"p", reader}}, Content: string(ahead)}
		if err := e.Sign(sk); err != nil {
			t.Fatal(err)
		}
		return e
	}
	w.Relay.SetExtra(mk(clitest.SwRelaySK, clitest.PubOf(t, clitest.SwViewerSK)), mk(clitest.SwForgerSK, owner))
	v = clitest.DecodeOut[report.Workspace](t, w.MustAs(clitest.SwOwnerSK, "workspace", "show", "--json"))
	if v.Revision != 2 || len(v.Rejected) != 1 || !strings.Contains(v.Rejected[0], "projection-signer") {
		t.Fatalf("owner's view with a mismatched and a forged copy: revision %d rejected %v", v.Revision, v.Rejected)
	}
	w.Relay.SetExtra()
	mv := clitest.DecodeOut[report.WorkspaceChange](t, w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Beta", "--json"))
	if mv.Revision != 3 || len(mv.Workspace.Sections) != 2 {
		t.Fatalf("write through a Buzz-shaped relay %+v", mv)
	}
}
