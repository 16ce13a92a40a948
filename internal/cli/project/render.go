// Rendering `roster project show` (JSON and human) and its read errors.

package project

import (
	"context"
	"fmt"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/projects"
)

func projectView(c projects.Coordinate, rd projects.ReadResult) report.Project {
	st := rd.Best
	// The naddr carries the relay that served the shown state as its hint.
	naddr := projectNaddr(c, rd.BestURL)
	out := report.Project{
		Schema: "roster.project/v1", Coordinate: c.String(), Owner: c.Owner, OwnerNpub: gitstate.EncodeNpub(c.Owner),
		D: c.D, Address: c.Address(), Naddr: naddr, Revision: st.Revision, Deleted: st.Deleted,
		Name: st.Document.Name, Description: st.Document.Description, Visibility: st.Document.Visibility,
		RelatedChannels: cmdutil.OrEmptySlice(st.Document.RelatedChannels), Members: st.Document.Members,
		UnknownTags: st.Document.Unknown, ProjectTags: st.ProjectTags,
		Projection: report.ProjectProjection{EventID: st.EventID, CreatedAt: int64(st.CreatedAt), Relay: rd.BestURL,
			Signer: st.Signer, IdentityEvent: st.IdentityEvent, ChangeEvent: st.ChangeEvent},
		Relays: rd.Relays, Complete: rd.Complete,
	}
	if st.Document.HomeChannel != "" {
		h := st.Document.HomeChannel
		out.HomeChannel = &h
	}
	if out.Members == nil {
		out.Members = []projects.Member{}
	}
	if out.UnknownTags == nil {
		out.UnknownTags = [][]string{}
	}
	if out.ProjectTags == nil {
		out.ProjectTags = [][]string{}
	}
	return out
}

// projectRender prints the human view. The name, description, channels,
// visibility, addresses and relay reasons are the relay's or the owner's
// text: each is printed through termtext.Line, so it stays on its row.
func projectRender(a *cmdutil.Factory, p report.Project) {
	w := a.Io.Out
	// On a terminal npubs are short and long rows wrap between words;
	// in a pipe both are as they always were.
	pt, width := render.PeopleShown(a, context.Background(), nil, p.OwnerNpub), render.TerminalWidth(a)
	var relays, channels []string
	for _, r := range p.Relays {
		relays = append(relays, r.URL)
	}
	if p.HomeChannel != nil {
		channels = append(channels, *p.HomeChannel)
	}
	ct := render.ChannelsShown(a, context.Background(), relays, append(channels, p.RelatedChannels...)...)
	row := func(format string, args ...any) { render.FitLine(w, width, 16, fmt.Sprintf(format, args...)) }
	title := p.Name
	if title == "" {
		title = p.D
	}
	row("%s  (%s)", termtext.Line(title), termtext.Line(p.Coordinate))
	if p.Stale {
		row("  STALE: this is the last verified cached state (%s); it is not used for a change", termtext.Line(p.StaleReason))
	}
	if p.Deleted {
		row("  DELETED at revision %d; its owner recreates it with: %s", p.Revision,
			pt.Named(render.Selectors(a)).Render(projectRecreate(p.D, p.Owner, relays)))
	} else {
		row("  revision      %d", p.Revision)
		if p.Description != "" {
			row("  description   %s", termtext.Line(p.Description))
		}
		row("  owner         %s", pt.Of(p.OwnerNpub))
		if p.HomeChannel != nil {
			row("  home channel  %s", ct.Of(*p.HomeChannel))
		} else {
			row("  home channel  none (only the owner may change related channels)")
		}
		row("  related       %d channel(s)", len(p.RelatedChannels))
		for _, ch := range p.RelatedChannels {
			row("    %s", ct.Of(ch))
		}
		if p.Visibility != "" {
			row("  visibility    %s", termtext.Line(p.Visibility))
		}
		if p.Repositories == nil {
			for _, m := range p.Members {
				row("  repository    %s", termtext.Line(m.Address))
			}
		} else {
			renderProjectRepositories(a, row, *p.Repositories)
		}
	}
	row("  signed by     %s (relay self) at %s, event %s", p.Projection.Signer, graph.HumanTime(p.Projection.CreatedAt), p.Projection.EventID)
	for _, r := range p.Relays {
		line := fmt.Sprintf("  relay %s: %s, projection %s", termtext.Line(r.URL), termtext.Line(cmdutil.RelayOutcome(r.Status, r.Reason)), r.Projection)
		if r.Error != "" {
			line += " (" + termtext.Line(r.Error) + ")"
		}
		render.FitLine(w, width, 4, line)
	}
}

func projectNoRelays(c projects.Coordinate) *cmdutil.ExitError {
	return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "no-relays",
		Err:      fmt.Errorf("no relay to ask for project %s: pass --relay or set ROSTER_RELAYS", c),
		Commands: []suggest.Command{suggest.Roster("project", "show", c.String(), "--relay", "wss://<relay>")}}
}

// projectNotFound is exit 4: no relay holds a valid projection. While a
// relay asked did not answer, that is incomplete evidence, not "not found".
// arg is the project as the user named it, for the commands to retry.
func projectNotFound(a *cmdutil.Factory, arg string, c projects.Coordinate, rd projects.ReadResult) *cmdutil.ExitError {
	details := map[string]any{"coordinate": c.String(), "address": c.Address(), "relays": rd.Relays}
	show := suggest.Roster("project", "show", arg)
	if answered, failed := cmdutil.ProjectRelayFailures(rd); len(failed) > 0 {
		statuses := make([]string, len(rd.Relays))
		for i, r := range rd.Relays {
			statuses[i] = r.Status
		}
		return cmdutil.RelayOutageErr("project "+c.String(), answered, failed, []suggest.Command{
			cmdutil.RetryLater(show, statuses...),
			show.With("--relay", "wss://<another relay hosting the project>"),
			show.With("--offline").Because("what an earlier read cached")}, details)
	}
	return projectMissing(c, rd, show)
}

// projectMissing is exit 4 "not-found": every relay asked answered, and none
// holds a valid projection. show is the command that reads the project.
func projectMissing(c projects.Coordinate, rd projects.ReadResult, show suggest.Command) *cmdutil.ExitError {
	ee := render.PipelineErr(projects.NotFound(c, rd)).(*cmdutil.ExitError)
	ee.Commands = []suggest.Command{show.With("--relay", "wss://<relay hosting the project>")}
	return ee
}

// projectRecreate is `roster project create` of a deleted project, on the
// relay that showed it, run by its owner.
func projectRecreate(d, owner string, relays []string) suggest.Command {
	c := suggest.Roster("project", "create", d, "--name", "<name>")
	if len(relays) > 0 {
		c = c.With("--relay", relays[0])
	}
	return c.ByPerson(graph.Npub(owner))
}
