package report

import (
	"sort"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
)

// HistorySchema is `roster repo history --json`.
const HistorySchema = "roster.repo-history/v1"

// History is each person's effective history per role, as graph resolves
// it by the spec's history precedence (the selected maintainer's record,
// else the nearest confirmed author's, ties by lowest pubkey), with every
// other copy kept visible: roster.repo-history/v1 (docs/json.md).
type History struct {
	Schema     string          `json:"schema"`
	Coordinate Coordinate      `json:"coordinate"`
	People     []HistoryPerson `json:"people"`
	Complete   bool            `json:"complete"`

	Names  Names  `json:"-"`
	Viewer string `json:"-"`
}

// HistoryPerson is one subject of some role record.
type HistoryPerson struct {
	Npub   string  `json:"npub"`
	Pubkey string  `json:"pubkey"`
	Name   *string `json:"name"`
	NIP05  *string `json:"nip05"`
	// Current is the person's role now: lead, maintainer, invited,
	// moderator, invited-moderator, or former (history only).
	Current string        `json:"current"`
	Roles   []HistoryRole `json:"roles"`
}

// HistoryRole is the resolved history of one role.
type HistoryRole struct {
	Role   string `json:"role"` // lead | maintainer | moderator
	Letter string `json:"letter"`
	// Source is the npub of the author whose record precedence chose.
	Source    string            `json:"source"`
	Intervals []HistoryInterval `json:"intervals"`
	// Conflict says some other author's copy disagrees with Source's.
	Conflict bool          `json:"conflict"`
	Copies   []HistoryCopy `json:"copies"`
}

// HistoryInterval is one effective interval.
type HistoryInterval struct {
	From *int64 `json:"from"` // null when the record gives no start
	// Until is the end time, null while open or when not asserted.
	Until *int64 `json:"until"`
	// End is how the interval ends: open (still running), signed (a
	// numeric end its author signed), deferred (a history-only copy that
	// asserts no end), deletion (the created_at of the departed author's
	// NIP-09 deletion) or estimated (an observation, not signed evidence).
	End string `json:"end"`
}

// HistoryCopy is one author's record of the role.
type HistoryCopy struct {
	Author string   `json:"author"`
	Tag    []string `json:"tag"`
	Chosen bool     `json:"chosen"`
}

var roleOfLetter = map[string]string{"M": "lead", "m": "maintainer", "o": "moderator"}

// HistoryOf builds the history of v's resolution.
func HistoryOf(v *discovery.View) *History {
	r := v.Resolution
	c := v.Coordinate()
	names := NamesOf(v.Profiles)
	h := &History{Schema: HistorySchema, People: []HistoryPerson{}, Complete: v.Complete(), Names: names,
		Coordinate: Coordinate{Kind: c.Kind, Pubkey: c.Pubkey, Npub: graph.Npub(c.Pubkey), Identifier: c.Identifier, Naddr: gitstate.EncodeNaddr(c, nil)}}
	if v.Viewer != "" {
		h.Viewer = graph.Npub(v.Viewer)
	}
	current := map[string]string{}
	for _, m := range r.Moderators {
		current[m.Pubkey] = map[bool]string{true: "moderator", false: "invited-moderator"}[m.Status == graph.StatusConfirmed]
	}
	for _, m := range r.Maintainers {
		current[m.Pubkey] = map[bool]string{true: "maintainer", false: "invited"}[m.Status == graph.StatusConfirmed]
	}
	if r.Lead != "" {
		current[r.Lead] = "lead"
	}
	at := map[string]int{}
	for _, e := range r.History {
		i, ok := at[e.Pubkey]
		if !ok {
			npub := graph.Npub(e.Pubkey)
			cur := current[e.Pubkey]
			if cur == "" {
				cur = "former"
			}
			i = len(h.People)
			at[e.Pubkey] = i
			h.People = append(h.People, HistoryPerson{Npub: npub, Pubkey: e.Pubkey, Name: names.Name(npub), NIP05: names.NIP05(npub), Current: cur, Roles: []HistoryRole{}})
		}
		role := HistoryRole{Role: roleOfLetter[e.Role], Letter: e.Role, Source: graph.Npub(e.Source), Conflict: e.Conflict,
			Intervals: []HistoryInterval{}, Copies: []HistoryCopy{}}
		for _, iv := range e.Intervals {
			hi := HistoryInterval{End: iv.End}
			if !iv.StartUnknown {
				s := iv.Start
				hi.From = &s
			}
			if iv.EndTime != 0 && iv.End != graph.EndOpen && iv.End != graph.EndDeferred {
				t := iv.EndTime
				hi.Until = &t
			}
			role.Intervals = append(role.Intervals, hi)
		}
		for _, cp := range e.Copies {
			role.Copies = append(role.Copies, HistoryCopy{Author: graph.Npub(cp.Author), Tag: append([]string{}, cp.Tag...), Chosen: cp.Author == e.Source})
		}
		h.People[i].Roles = append(h.People[i].Roles, role)
	}
	rank := map[string]int{"lead": 0, "maintainer": 1, "invited": 2, "moderator": 3, "invited-moderator": 4, "former": 5}
	sort.SliceStable(h.People, func(i, j int) bool { return rank[h.People[i].Current] < rank[h.People[j].Current] })
	for _, p := range h.People {
		sort.SliceStable(p.Roles, func(i, j int) bool { return rank[p.Roles[i].Role] < rank[p.Roles[j].Role] })
	}
	return h
}
