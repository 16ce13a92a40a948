package report

import (
	"sort"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
)

// GraphSchema is `roster repo graph --json`.
const GraphSchema = "roster.repo-graph/v1"

// Graph is who lists whom in a repository, as read from each reached
// author's latest announcement: roster.repo-graph/v1 (docs/json.md).
// Nodes are in the order a walk from the selected maintainer meets them;
// edges in each author's tag order.
type Graph struct {
	Schema     string      `json:"schema"`
	Coordinate Coordinate  `json:"coordinate"`
	History    bool        `json:"history"`
	People                 // lead_maintainer ... moderators
	Nodes      []GraphNode `json:"nodes"`
	Edges      []GraphEdge `json:"edges"`
	Complete   bool        `json:"complete"`

	Names  Names  `json:"-"`
	Viewer string `json:"-"`
}

// GraphNode is one person.
type GraphNode struct {
	Npub   string  `json:"npub"`
	Pubkey string  `json:"pubkey"`
	Name   *string `json:"name"`
	NIP05  *string `json:"nip05"`
	// Role is lead, maintainer, invited, moderator, invited-moderator,
	// former (someone's ended or deferred record names them) or none.
	Role     string `json:"role"`
	Selected bool   `json:"selected"`
	// Announces says whether the person has an announcement of this
	// identifier (an invitee may have none).
	Announces bool `json:"announces"`
}

// GraphEdge is one role record: From's announcement lists To.
type GraphEdge struct {
	From   string `json:"from"` // npub of the announcement's author
	To     string `json:"to"`   // npub of the subject
	Letter string `json:"letter"`
	// Kind is active (a current assignment), defer (a history-only copy)
	// or ended (every interval closed); defer and ended only with --history.
	Kind string `json:"kind"`
	// Start is the record's latest start (null when untimed), End its end
	// for an ended record.
	Start *int64 `json:"start"`
	End   *int64 `json:"end"`
	// Lead marks an edge of the lead path.
	Lead bool `json:"lead_path"`
}

// GraphOf builds the graph of v: every author reached from the selected
// one through active records (with history, through every valid record),
// the lead path's authors and the confirmed component.
func GraphOf(v *discovery.View, history bool) *Graph {
	r := v.Resolution
	c := v.Coordinate()
	names := NamesOf(v.Profiles)
	g := &Graph{Schema: GraphSchema, History: history, People: PeopleOf(r, names), Nodes: []GraphNode{}, Edges: []GraphEdge{},
		Coordinate: Coordinate{Kind: c.Kind, Pubkey: c.Pubkey, Npub: graph.Npub(c.Pubkey), Identifier: c.Identifier, Naddr: gitstate.EncodeNaddr(c, nil)},
		Complete:   v.Complete(), Names: names}
	if v.Viewer != "" {
		g.Viewer = graph.Npub(v.Viewer)
	}
	role := map[string]string{}
	for _, m := range r.Moderators {
		role[m.Pubkey] = map[bool]string{true: "moderator", false: "invited-moderator"}[m.Status == graph.StatusConfirmed]
	}
	for _, m := range r.Maintainers {
		role[m.Pubkey] = map[bool]string{true: "maintainer", false: "invited"}[m.Status == graph.StatusConfirmed]
	}
	if r.Lead != "" {
		role[r.Lead] = "lead"
	}
	onPath := map[[2]string]bool{}
	for i := 0; i+1 < len(r.LeadPath); i++ {
		onPath[[2]string{r.LeadPath[i], r.LeadPath[i+1]}] = true
	}
	if n := len(r.LeadPath); n > 0 {
		onPath[[2]string{r.LeadPath[n-1], r.LeadPath[n-1]}] = true // the lead's self-M
	}

	seen := map[string]bool{}
	var order []string
	visit := func(pk string) {
		if pk != "" && !seen[pk] {
			seen[pk] = true
			order = append(order, pk)
		}
	}
	visit(c.Pubkey)
	for _, pk := range r.LeadPath {
		visit(pk)
	}
	for i := 0; i < len(order); i++ {
		a := r.Announcements[order[i]]
		if a == nil {
			continue
		}
		for _, rec := range a.Roles {
			if !rec.Valid {
				continue
			}
			kind := edgeKind(rec)
			if kind != "active" && !history {
				continue
			}
			e := GraphEdge{From: graph.Npub(a.Author), To: graph.Npub(rec.Subject), Letter: string(rec.Letter), Kind: kind,
				Lead: kind == "active" && rec.Letter == graph.RoleLead && onPath[[2]string{a.Author, rec.Subject}]}
			if s := rec.LastStart(); s > 0 {
				e.Start = &s
			}
			if kind == "ended" && len(rec.Boundaries) > 0 {
				end := rec.Boundaries[len(rec.Boundaries)-1]
				e.End = &end
			}
			g.Edges = append(g.Edges, e)
			// Active listings are followed to their subject's own
			// announcement; with --history, every valid record is.
			visit(rec.Subject)
		}
	}
	for _, pk := range r.Component {
		visit(pk)
	}
	for _, pk := range order {
		npub := graph.Npub(pk)
		rl := role[pk]
		if rl == "" {
			rl = "none"
			if history {
				rl = "former"
			}
		}
		g.Nodes = append(g.Nodes, GraphNode{Npub: npub, Pubkey: pk, Name: names.Name(npub), NIP05: names.NIP05(npub),
			Role: rl, Selected: pk == c.Pubkey, Announces: r.Announcements[pk] != nil})
	}
	return g
}

// edgeKind classifies a valid record: active, defer or ended.
func edgeKind(rec graph.RoleRecord) string {
	switch {
	case rec.Active():
		return "active"
	case rec.Defer:
		return "defer"
	}
	return "ended"
}

// SortedNodes is g.Nodes by npub (for renderers that want a stable order
// independent of the walk).
func (g *Graph) SortedNodes() []GraphNode {
	out := append([]GraphNode(nil), g.Nodes...)
	sort.Slice(out, func(i, j int) bool { return out[i].Npub < out[j].Npub })
	return out
}
