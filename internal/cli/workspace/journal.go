// The journal of unfinished writes for the workspace commands: said before
// a write signs, and resumed by `roster pending resume`.

package workspace

import (
	"context"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/sections"
)

// noticeUnfinished says on stderr, before a write of the workspace signs
// anything, which unfinished writes of the journal touch it. A journal
// that cannot be read is an error: a write stops before signing.
func noticeUnfinished(a *cmdutil.Factory, ws *wsSession) error {
	us, err := pipeline.Unfinished(ws.Journal, sections.JournalAddress(ws.Community, ws.Owner))
	render.NoticeUnfinishedOf(a, "workspace", us)
	if err != nil {
		return render.PipelineErr(err)
	}
	return nil
}

// ResumeCommand finishes an unfinished workspace command for `roster
// pending resume` (sections.Session.Resume): the recheck on the one relay,
// then the exact retry. It returns the relay's answer when the event was
// sent again (nil when the relay had accepted it before).
func ResumeCommand(a *cmdutil.Factory, ctx context.Context, w journal.Write) ([]relaypool.Delivered, error) {
	e := w.First()
	owner := ownerOf(e.Repo)
	// The workspace and its one relay come from the entry alone (pending
	// resume takes no --relay): an entry naming neither cannot be resumed,
	// only forgotten.
	relays := relaypool.NormalizeRelays(e.Relays)
	if owner == "" || len(e.Relays) != 1 || len(relays) != 1 {
		return nil, &cmdutil.ExitError{Code: cmdutil.ExitRefused, Kind: "pending-incomplete",
			Err:      fmt.Errorf("the unfinished write %s names no workspace roster can read (%q on %q); nothing was sent", w.ID[:12], e.Repo, e.Relays),
			Commands: []suggest.Command{suggest.Roster("pending", "discard", w.ID[:12]).Because("forget it (what relays hold stays there)")}}
	}
	a.Opts.Relays = relays
	ws, err := openWorkspace(a, ctx, owner)
	if err != nil {
		return nil, err
	}
	defer ws.close()
	if ws.Me != e.Event.PubKey {
		return nil, &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage",
			Err: fmt.Errorf("the unfinished write %s was signed by %s and is read with that key; you are %s", w.ID[:12], graph.Npub(e.Event.PubKey), graph.Npub(ws.Me))}
	}
	res, err := ws.Resume(ctx, e, a.Io.Now())
	if err != nil {
		return nil, render.PipelineErr(err)
	}
	if !res.Sent {
		return nil, nil
	}
	return []relaypool.Delivered{{URL: ws.Relay, OK: true, ReadBack: true}}, nil
}

// ownerOf is the owner of a workspace journal address
// ("nip-sw:<community>:<owner>"; the community may hold a port).
func ownerOf(addr string) string {
	i := strings.LastIndexByte(addr, ':')
	if !strings.HasPrefix(addr, "nip-sw:") || i < 0 {
		return ""
	}
	if pk := addr[i+1:]; nostr.IsValid32ByteHex(pk) {
		return pk
	}
	return ""
}
