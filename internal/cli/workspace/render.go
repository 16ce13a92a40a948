package workspace

import (
	"context"
	"fmt"
	"sort"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/sections"
)

func (ws *wsSession) view(cur *sections.Current) report.Workspace {
	w := cur.W
	out := report.Workspace{Schema: "roster.workspace/v1", Relay: ws.Relay, RelaySelf: ws.Self, Community: ws.Community,
		Owner: render.WsPerson(ws.Owner, sections.RoleOwner), You: render.WsPerson(ws.Me, cur.Role),
		Revision: w.Revision, LayoutRevision: w.LayoutRevision, KeyEpoch: w.KeyEpoch, Migration: w.Migration,
		Sections: []report.WorkspaceSection{}, Assignments: orEmptyAssignments(w.Assignments), Readers: []report.WorkspacePerson{},
		ProjectionEventID: cur.Sync.Verified.Event.ID, Decision: string(cur.Sync.Decision),
		Refetched: cur.Sync.Refetched, Stale: cur.Sync.Stale, Rejected: []string{}}
	if cur.Sync.FetchErr != nil {
		out.StaleReason = cur.Sync.FetchErr.Error()
	}
	for _, r := range cur.Sync.Rejected {
		out.Rejected = append(out.Rejected, r.Error())
	}
	for _, s := range w.Sections {
		sec := report.WorkspaceSection{ID: s.ID, Rank: s.Rank, Label: s.Label, Icon: s.Icon, Channels: []string{}}
		for _, a := range w.Assignments {
			if a.SectionID == s.ID {
				sec.Channels = append(sec.Channels, a.ChannelID)
			}
		}
		out.Sections = append(out.Sections, sec)
	}
	readers := make([]string, 0, len(w.Readers))
	for pk := range w.Readers {
		readers = append(readers, pk)
	}
	sort.Slice(readers, func(i, j int) bool {
		// owner first, then by pubkey
		if (readers[i] == ws.Owner) != (readers[j] == ws.Owner) {
			return readers[i] == ws.Owner
		}
		return readers[i] < readers[j]
	})
	for _, pk := range readers {
		out.Readers = append(out.Readers, render.WsPerson(pk, w.Readers[pk]))
	}
	return out
}

func orEmptyAssignments(a []sections.ProjectedAssignment) []sections.ProjectedAssignment {
	if a == nil {
		return []sections.ProjectedAssignment{}
	}
	return a
}

// RenderWorkspace prints the human view. Section labels, icons, ids and
// channels are the workspace owner's text, and the stale and rejection
// reasons may quote the relay: each is printed through termtext.Line.
func RenderWorkspace(a *cmdutil.Factory, v report.Workspace) {
	out := a.Io.Out
	// On a terminal npubs are short and long rows wrap between words;
	// in a pipe both are as they always were.
	who := []string{v.Owner.Npub}
	for _, r := range v.Readers {
		who = append(who, r.Npub)
	}
	pt, width := render.PeopleShown(a, context.Background(), nil, who...), render.TerminalWidth(a)
	var channels []string
	for _, s := range v.Sections {
		channels = append(channels, s.Channels...)
	}
	ct := render.ChannelsShown(a, context.Background(), []string{v.Relay}, channels...)
	render.FitLine(out, width, 4, fmt.Sprintf("workspace of %s on %s", pt.Of(v.Owner.Npub), termtext.Line(v.Community)))
	fmt.Fprintf(out, "  revision %d, layout revision %d, key epoch %d; you are %s\n", v.Revision, v.LayoutRevision, v.KeyEpoch, orNone(v.You.Role))
	if v.Stale {
		render.FitLine(out, width, 4, fmt.Sprintf("  STALE: the relay could not be read (%s); this is the last verified cached projection and cannot be used for a change", termtext.Line(v.StaleReason)))
	}
	if v.Refetched {
		fmt.Fprintln(out, "  (a revision gap triggered a full refetch)")
	}
	if v.Migration != nil {
		render.FitLine(out, width, 4, fmt.Sprintf("  migration source: channel-sections event %s (hash %s)", v.Migration.SourceEventID, v.Migration.SourceHash))
	}
	fmt.Fprintln(out, "sections:")
	if len(v.Sections) == 0 {
		fmt.Fprintln(out, "  (none)")
	}
	for _, s := range v.Sections {
		icon := ""
		if s.Icon != nil {
			icon = " [" + termtext.Line(*s.Icon) + "]"
		}
		render.FitLine(out, width, 7, fmt.Sprintf("  %d. %s%s  %s", s.Rank+1, termtext.Line(s.Label), icon, termtext.Line(s.ID)))
		for _, c := range s.Channels {
			fmt.Fprintf(out, "       %s\n", ct.Of(c))
		}
	}
	fmt.Fprintln(out, "readers:")
	for _, r := range v.Readers {
		render.FitLine(out, width, 4, fmt.Sprintf("  %s  %s", pt.Of(r.Npub), r.Role))
	}
	if len(v.Rejected) > 0 {
		fmt.Fprintf(out, "ignored %d projection(s) that failed verification:\n", len(v.Rejected))
		for _, r := range termtext.Lines(v.Rejected) {
			render.FitLine(out, width, 4, "  "+r)
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "not a grantee"
	}
	return "the " + s
}
