package report

import (
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
)

func PeopleOf(r *graph.Resolution, names Names) People {
	p := People{LeadSource: string(r.LeadSource), LeadPath: npubsOf(r.LeadPath),
		Maintainers: MembersOf(r.Maintainers, names), Moderators: MembersOf(r.Moderators, names)}
	if r.Lead != "" {
		l := graph.Npub(r.Lead)
		p.LeadMaintainer = &l
	}
	return p
}

// FromView maps one discovery onto roster.repo/v2. graph speaks hex;
// people get npubs here and nowhere earlier.
func FromView(v *discovery.View) *Repo {
	r := v.Resolution
	c := v.Coordinate()
	names := NamesOf(v.Profiles)
	rep := &Repo{
		Schema: RepoSchema,
		Coordinate: Coordinate{Kind: c.Kind, Pubkey: c.Pubkey, Npub: graph.Npub(c.Pubkey),
			Identifier: c.Identifier, Naddr: gitstate.EncodeNaddr(c, nil)},
		SelectedMaintainer:             graph.Npub(c.Pubkey),
		People:                         PeopleOf(r, names),
		PendingHistoryAcknowledgements: []PendingAck{},
		Health:                         []Finding{},
		Lifecycle:                      Lifecycle{Status: r.Lifecycle.Status},
		Relays:                         []Relay{},
		Complete:                       v.Complete(),
		Offline:                        v.Offline,
		Names:                          names,
	}
	if v.Viewer != "" {
		rep.Viewer = graph.Npub(v.Viewer)
	}
	for _, p := range r.PendingAcknowledgements {
		rep.PendingHistoryAcknowledgements = append(rep.PendingHistoryAcknowledgements, PendingAck{
			Npub: graph.Npub(p.Pubkey), Transition: p.Transition, Time: p.Time, Command: p.Command.String(),
			Author: graph.Npub(p.Author), Moderator: p.Moderator})
	}
	for _, f := range r.Health {
		rep.Health = append(rep.Health, findingIn(r, f))
	}
	for _, l := range v.RoleLosses {
		rep.Health = append(rep.Health, findingIn(r, l.Finding(v.Viewer)))
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
		rep.State = &State{EventID: v.State.EventID, Author: graph.Npub(v.State.Author),
			Head: v.State.Head, Refs: map[string]string{}}
		for k, val := range v.State.Refs {
			rep.State.Refs[k] = val
		}
	}
	if v.Fetch != nil {
		for _, rr := range v.Fetch.Relays {
			rep.Relays = append(rep.Relays, Relay{URL: rr.URL, Status: rr.Status,
				Events: rr.Events, Reason: rr.Reason, Dropped: rr.Dropped, Forged: rr.Forged})
		}
	}
	rep.Meta = metadataOf(r)
	return rep
}

// metadataOf reads the repository's descriptive fields by the spec's rules
// (graph.RepositoryDataOf: shared fields from the confirmed component's
// newest announcement, clone servers and relays unioned from it; the
// selected announcement, else its last observed snapshot, when nobody is
// confirmed, so archived or deleted coordinates stay readable).
func metadataOf(r *graph.Resolution) Metadata {
	d := graph.RepositoryDataOf(r)
	return Metadata{Name: d.Name, Description: d.Description, Clone: d.Clone, Web: d.Web, Relays: d.Relays,
		Hashtags: d.Hashtags, EUC: d.EUC}
}

func FindingOf(f graph.Finding) Finding {
	out := Finding{Severity: string(f.Severity), Code: f.Code, Message: f.Message, Text: f.MessageText()}
	if f.Author != "" {
		a := graph.Npub(f.Author)
		out.Author = &a
	}
	if f.Command != nil {
		c := f.Command.String()
		out.Command = &c
		s := *f.Command
		out.Suggested = &s
	}
	return out
}

func MembersOf(ms []graph.Member, names Names) []Member {
	out := make([]Member, 0, len(ms))
	for _, m := range ms {
		n := graph.Npub(m.Pubkey)
		out = append(out, Member{Npub: n, Pubkey: m.Pubkey, Status: m.Status, Name: names.Name(n), NIP05: names.NIP05(n)})
	}
	return out
}

// npubsOf is graph.Npubs (never nil: an empty list stays [] in JSON).
func npubsOf(hexes []string) []string { return graph.Npubs(hexes) }
