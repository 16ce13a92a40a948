package main

import (
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
)

func peopleOf(r *graph.Resolution) peopleJSON {
	p := peopleJSON{LeadSource: string(r.LeadSource), LeadPath: npubsOf(r.LeadPath),
		Maintainers: membersJSON(r.Maintainers), Moderators: membersJSON(r.Moderators)}
	if r.Lead != "" {
		l := graph.Npub(r.Lead)
		p.LeadMaintainer = &l
	}
	return p
}

// buildRepoReport maps one discovery onto roster.repo/v1. graph speaks hex;
// people get npubs here and nowhere earlier.
func buildRepoReport(v *repoView) *repoReport {
	r := v.Resolution
	c := v.Coordinate()
	rep := &repoReport{
		Schema: repoSchema,
		Coordinate: coordinateJSON{Kind: c.Kind, Pubkey: c.Pubkey, Npub: graph.Npub(c.Pubkey),
			Identifier: c.Identifier, Naddr: gitstate.EncodeNaddr(c, nil)},
		SelectedMaintainer:             graph.Npub(c.Pubkey),
		peopleJSON:                     peopleOf(r),
		PendingHistoryAcknowledgements: []pendingAckJSON{},
		Health:                         []findingJSON{},
		Lifecycle:                      lifecycleJSON{Status: r.Lifecycle.Status},
		Relays:                         []relayReportJSON{},
		Complete:                       v.Complete(),
		offline:                        v.Offline,
	}
	if v.Viewer != "" {
		rep.viewer = graph.Npub(v.Viewer)
	}
	for _, p := range r.PendingAcknowledgements {
		rep.PendingHistoryAcknowledgements = append(rep.PendingHistoryAcknowledgements, pendingAckJSON{
			Npub: graph.Npub(p.Pubkey), Transition: p.Transition, Time: p.Time, Command: p.Command.String(),
			author: graph.Npub(p.Author)})
	}
	for _, f := range r.Health {
		rep.Health = append(rep.Health, findingToJSON(f))
	}
	if r.RecommendedCoordinate != nil {
		u := gitstate.NostrURL(*r.RecommendedCoordinate, nil)
		rep.RecommendedCoordinate = &u
	}
	if r.FollowLead {
		cmd := graph.CommandFollowLead().String()
		rep.FollowLeadCommand = &cmd
	}
	if r.Lifecycle.Status != graph.LifecycleActive {
		actor, t := graph.Npub(r.Lifecycle.Actor), r.Lifecycle.Time
		rep.Lifecycle.Actor, rep.Lifecycle.Time = &actor, &t
	}
	if v.State != nil {
		rep.State = &stateJSON{EventID: v.State.EventID, Author: graph.Npub(v.State.Author),
			Head: v.State.Head, Refs: map[string]string{}}
		for k, val := range v.State.Refs {
			rep.State.Refs[k] = val
		}
	}
	if v.Fetch != nil {
		for _, rr := range v.Fetch.Relays {
			rep.Relays = append(rep.Relays, relayReportJSON{URL: rr.URL, Status: rr.Status,
				Events: rr.Events, reason: rr.Reason, dropped: rr.Dropped})
		}
	}
	rep.meta = metadataOf(r)
	return rep
}

// metadataOf reads the selected announcement's descriptive fields, falling
// back to its last observed snapshot (archived or deleted coordinates stay
// readable).
func metadataOf(r *graph.Resolution) repoMetadata {
	a := r.Announcements[r.SelectedMaintainer]
	if a == nil {
		a = r.LastSnapshot
	}
	if a == nil {
		return repoMetadata{}
	}
	return repoMetadata{Name: a.Name, Description: a.Description, Clone: a.Clone, Web: a.Web, Relays: a.Relays, EUC: a.EUC}
}

func findingToJSON(f graph.Finding) findingJSON {
	out := findingJSON{Severity: string(f.Severity), Code: f.Code, Message: f.Message}
	if f.Author != "" {
		a := graph.Npub(f.Author)
		out.Author = &a
	}
	if f.Command != nil {
		c := f.Command.String()
		out.Command = &c
	}
	return out
}

func membersJSON(ms []graph.Member) []memberJSON {
	out := make([]memberJSON, 0, len(ms))
	for _, m := range ms {
		out = append(out, memberJSON{Npub: graph.Npub(m.Pubkey), Pubkey: m.Pubkey, Status: m.Status})
	}
	return out
}

// npubsOf is graph.Npubs (never nil: an empty list stays [] in JSON).
func npubsOf(hexes []string) []string { return graph.Npubs(hexes) }
