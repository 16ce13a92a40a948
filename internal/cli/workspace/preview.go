// The consequence previews of the destructive workspace writes: revoke
// (what the revoked person loses, who keeps the rotated key) and section
// remove (which channels become unassigned). Printed before the write acts;
// with --dry-run printed alone, nothing signed or sent.

package workspace

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/sections"
)

// wsConsequence says what a write would do to the current workspace: the
// sentences and the facts, or the refusal the write would give.
type wsConsequence func(ctx context.Context, ws *sections.Session, cur *sections.Current) ([]string, any, error)

// previewing wraps a write's build so that the consequence is printed
// (human output) right before the command is built and signed.
func previewing(a *cmdutil.Factory, verb string, consequence wsConsequence,
	build func(context.Context, *sections.Session, *sections.Current) (sections.Body, error)) func(context.Context, *sections.Session, *sections.Current) (sections.Body, error) {
	return func(ctx context.Context, s *sections.Session, cur *sections.Current) (sections.Body, error) {
		// A command that does not fit the workspace is refused by build,
		// as without the preview.
		if lines, _, err := consequence(ctx, s, cur); err == nil && !a.Opts.JSON {
			render.PrintConsequences(a, "workspace "+verb, lines, false)
		}
		return build(ctx, s, cur)
	}
}

// workspaceDryRun reads the current workspace as the write would, refuses
// what it would refuse before signing (a stale basis, the signer's role,
// a consequence's own refusal) and prints the consequence. Nothing is
// signed or sent.
func workspaceDryRun(a *cmdutil.Factory, ctx context.Context, ownerFlag, verb string, action sections.Action, consequence wsConsequence, lookups ...cmdutil.Nip05Lookup) error {
	if a.Opts.Offline {
		return cmdutil.UsageErr("`workspace %s --dry-run` previews against the relay's current workspace; drop --offline", verb)
	}
	ws, err := openWorkspace(a, ctx, ownerFlag, lookups...)
	if err != nil {
		return err
	}
	defer ws.close()
	cur, err := ws.Load(ctx)
	if err != nil {
		return render.PipelineErr(err)
	}
	if err := cur.Sync.WriteBasis(); err != nil {
		return render.PipelineErr(&pipeline.Error{Class: pipeline.Incomplete, Code: "stale", Err: err, Msg: err.Error(),
			Details: map[string]any{"relay": ws.Relay, "cached_revision": cur.W.Revision}})
	}
	unknown := cur.Role == sections.RoleReader && (action == sections.ActionMove || action == sections.ActionManage)
	if !unknown && !sections.Allowed(cur.Role, action) {
		return render.PipelineErr(ws.RoleRefusal(cur.Role, action, verb))
	}
	lines, facts, err := consequence(ctx, ws.Session, cur)
	if err != nil {
		return render.PipelineErr(err)
	}
	return render.EmitPreview(a, report.ConsequencePreview{Command: "workspace " + verb, Relay: ws.Relay, Consequences: lines, Facts: facts})
}

// roleLoses is what a reader of role can no longer do once revoked.
func roleLoses(r sections.Role) string {
	switch r {
	case sections.RoleViewer:
		return "read its sections and assignments"
	case sections.RoleMover:
		return "read it or move channels between its sections"
	case sections.RoleManager:
		return "read it, move channels, or add, rename, reorder and remove sections"
	}
	return "read it, nor do whatever else the role the relay gave them allowed (it does not publish roles)"
}

// invalidCommand is the refusal a write's build gives for a command that
// does not fit the workspace (sections.Session.Write: invalid-command).
func invalidCommand(ws *sections.Session, rule, msg string) error {
	return &pipeline.Error{Class: pipeline.Refused, Code: "invalid-command", Msg: msg + "; nothing was signed",
		Details: map[string]any{"rule": rule},
		Next:    []suggest.Command{suggest.Roster("workspace", "show", "--owner", render.WsPerson(ws.Owner, "").Npub, "--relay", ws.Relay).Because("its sections, channels and readers")}}
}

// revokeConsequence is what revoking gone takes away, and from whom.
func revokeConsequence(a *cmdutil.Factory, gone string) wsConsequence {
	return func(ctx context.Context, ws *sections.Session, cur *sections.Current) ([]string, any, error) {
		w := cur.W
		role, ok := w.Readers[gone]
		if gone == w.Owner {
			return nil, nil, invalidCommand(ws, "actor-is-owner", "the owner's authority is implicit; it cannot be revoked")
		}
		if !ok {
			return nil, nil, invalidCommand(ws, "grant-missing", render.WsPerson(gone, "").Npub+" holds no active grant in this workspace")
		}
		var remaining []string
		for pk := range w.Readers {
			if pk != gone && pk != w.Owner {
				remaining = append(remaining, pk)
			}
		}
		sort.Strings(remaining)
		pt := render.PeopleShown(a, ctx, nil, append([]string{gone, w.Owner}, remaining...)...)
		facts := report.WorkspaceRevokeFacts{Owner: render.WsPerson(w.Owner, sections.RoleOwner), Revoked: render.WsPerson(gone, role),
			Remaining: []report.WorkspacePerson{}, KeyEpochBefore: w.KeyEpoch, KeyEpochAfter: w.KeyEpoch + 1, Sections: len(w.Sections), Revision: w.Revision}
		var kept []string
		for _, pk := range remaining {
			facts.Remaining = append(facts.Remaining, render.WsPerson(pk, w.Readers[pk]))
			kept = append(kept, fmt.Sprintf("%s (%s)", pt.Of(pk), w.Readers[pk]))
		}
		who := pt.Of(gone)
		keptText := "the owner only (no other reader remains)"
		if len(kept) > 0 {
			keptText = fmt.Sprintf("the owner and the %d remaining reader(s): %s", len(kept), strings.Join(kept, ", "))
		}
		lines := []string{
			fmt.Sprintf("%s (%s) loses access to the workspace of %s on %s: they can no longer %s",
				who, role, pt.Of(w.Owner), termtext.Line(ws.Community), roleLoses(role)),
			fmt.Sprintf("the workspace key rotates from epoch %d to %d: the labels and icons of its %d section(s) are encrypted again under the new key, which is wrapped for %s",
				w.KeyEpoch, w.KeyEpoch+1, len(w.Sections), keptText),
			"the relay ends their live subscriptions at once; what they already read (labels, icons, the old key) cannot be erased",
		}
		return lines, facts, nil
	}
}

// removeConsequence is what removing the section ref does: the section
// goes, and every channel in it becomes unassigned.
func removeConsequence(a *cmdutil.Factory, ref string) wsConsequence {
	return func(ctx context.Context, ws *sections.Session, cur *sections.Current) ([]string, any, error) {
		w := cur.W
		sec, err := w.FindSection(ref)
		if err != nil {
			return nil, nil, &pipeline.Error{Class: pipeline.Usage, Code: "usage", Err: err, Msg: err.Error()}
		}
		var chans []string
		for _, as := range w.Assignments {
			if as.SectionID == sec.ID {
				chans = append(chans, as.ChannelID)
			}
		}
		sort.Strings(chans)
		ct := render.ChannelsShown(a, ctx, []string{ws.Relay}, chans...)
		pt := render.PeopleShown(a, ctx, nil, w.Owner)
		facts := report.WorkspaceRemoveFacts{Owner: render.WsPerson(w.Owner, sections.RoleOwner),
			Section: report.WorkspaceSection{ID: sec.ID, Rank: sec.Rank, Label: sec.Label, Icon: sec.Icon, Channels: []string{}}, Unassigned: []string{}, Revision: w.Revision}
		facts.Unassigned = append(facts.Unassigned, chans...)
		facts.Section.Channels = append(facts.Section.Channels, chans...)
		label := termtext.Line(sec.Label)
		lines := []string{fmt.Sprintf("section %s (%s) is removed from the workspace of %s, for every reader", label, sec.ID, pt.Of(w.Owner))}
		switch len(chans) {
		case 0:
			lines = append(lines, fmt.Sprintf("no channel is in %s, so no channel changes section", label))
		default:
			var named []string
			for _, ch := range chans {
				named = append(named, ct.Of(ch))
			}
			lines = append(lines, fmt.Sprintf("the %d channel(s) in %s become unassigned (in no section): %s", len(chans), label, strings.Join(named, ", ")))
		}
		return lines, facts, nil
	}
}
