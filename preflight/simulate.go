package preflight

import (
	"slices"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// Simulation is the before/after comparison of maintainers.md "Membership
// mutation contract": every consequence of the replacement, computed by
// resolving the repository twice with graph. Pubkeys are 64-hex.
type Simulation struct {
	NewlyInvited         []string `json:"newly_invited"`
	NewlyConfirmed       []string `json:"newly_confirmed"`
	Lost                 []string `json:"lost"` // confirmed before, not after
	InvitationsWithdrawn []string `json:"invitations_withdrawn"`
	ModeratorsGained     []string `json:"moderators_gained"`
	ModeratorsLost       []string `json:"moderators_lost"`
	// RemovedStaysConfirmed answers, for a removal, whether the named pubkey
	// stays confirmed through another path, and RetainingEdges names them.
	RemovedStaysConfirmed *bool  `json:"removed_stays_confirmed,omitempty"`
	RetainingEdges        []Edge `json:"retaining_edges,omitempty"`
	// Imported are people a join would confirm beyond the named one, each
	// with the active edges that connect them.
	Imported   []Import    `json:"imported"`
	LeadBefore LeadSummary `json:"lead_before"`
	LeadAfter  LeadSummary `json:"lead_after"`
	// PendingAcknowledgements are the transitions still unrecorded after the change.
	PendingAcknowledgements []graph.PendingAck `json:"pending_history_acknowledgements"`
	// SelectedCoordinate is the checkout's coordinate before and after (follow-lead).
	SelectedBefore graph.Coordinate `json:"selected_before"`
	SelectedAfter  graph.Coordinate `json:"selected_after"`
	Identity       []IdentityChange `json:"identity_changes"`
	// Confirmation classifies an add: invitation, expected confirmation, or
	// confirmation by a standing acceptance of an earlier closed assignment.
	Confirmation *Confirmation `json:"confirmation,omitempty"`
}

// LeadSummary is one side's lead resolution.
type LeadSummary struct {
	Lead   string   `json:"lead"`
	Source string   `json:"source"`
	Path   []string `json:"path"`
}

// Import is one transitively imported pubkey and how it connects.
type Import struct {
	Pubkey string `json:"pubkey"`
	Edges  []Edge `json:"edges"`
}

// IdentityChange is an `r` earliest-unique-commit or `u` upstream difference.
type IdentityChange struct {
	Field  string `json:"field"` // "r euc" | "u"
	Who    string `json:"who"`   // the announcement author compared with the selected component
	Before string `json:"before"`
	After  string `json:"after"`
}

func simulate(bv, av *view, before, after *graph.Resolution, in Input) Simulation {
	s := Simulation{
		NewlyConfirmed:          minus(av.confirmed, bv.confirmed),
		Lost:                    minus(bv.confirmed, av.confirmed),
		ModeratorsGained:        minus(av.modConfirm, bv.modConfirm),
		ModeratorsLost:          minus(bv.modConfirm, av.modConfirm),
		LeadBefore:              LeadSummary{before.Lead, string(before.LeadSource), before.LeadPath},
		LeadAfter:               LeadSummary{after.Lead, string(after.LeadSource), after.LeadPath},
		SelectedBefore:          in.Selected,
		SelectedAfter:           in.Selected,
		PendingAcknowledgements: after.PendingAcknowledgements,
	}
	s.NewlyInvited = minus(minus(av.invited, bv.invited), bv.confirmed)
	s.InvitationsWithdrawn = minus(minus(bv.invited, av.invited), av.confirmed)
	s.InvitationsWithdrawn = append(s.InvitationsWithdrawn, minus(minus(bv.modInvited, av.modInvited), av.modConfirm)...)
	s.NewlyInvited = append(s.NewlyInvited, minus(minus(av.modInvited, bv.modInvited), bv.modConfirm)...)
	named := in.Intent.Subject
	if in.Intent.Action == ActAccept {
		named = in.Author
	}
	for _, p := range s.NewlyConfirmed {
		if p == named {
			continue
		}
		s.Imported = append(s.Imported, Import{Pubkey: p, Edges: av.edgesAround(p, av.confirmed)})
	}
	if in.Intent.Action == ActRemove {
		stays := av.isConfirmed(named)
		s.RemovedStaysConfirmed = &stays
		if stays {
			s.RetainingEdges = av.listersOf(named, av.confirmed)
		}
	}
	if in.Intent.Action == ActAdd {
		s.Confirmation = confirmationOf(s, named, bv.anns[in.Author], bv.anns[named])
	}
	s.Identity = identityDiffs(av, in, named)
	if s.Imported == nil {
		s.Imported = []Import{}
	}
	return s
}

// edgesAround lists the active listings between p and the confirmed set, in
// both directions: the reciprocal edges that connect p.
func (v *view) edgesAround(p string, among []string) []Edge {
	out := v.listersOf(p, among)
	for _, q := range among {
		if q != p && v.lists(p, q) {
			out = append(out, Edge{From: p, To: q})
		}
	}
	return out
}

// identityDiffs compares the `r` euc and `u` tags of the named pubkey's (or
// the accepter's) announcement with the selected component's, and the
// author's before and after.
func identityDiffs(v *view, in Input, named string) []IdentityChange {
	ref := v.latest[v.lead]
	if ref == nil {
		ref = v.latest[v.selected]
	}
	out := []IdentityChange{}
	if ref == nil || named == "" || named == ref.PubKey {
		return out
	}
	other := v.latest[named]
	if in.Intent.Action == ActAccept {
		// The accepter's newest discovered announcement, by the same NIP-01
		// ordering graph uses; v.latest holds only announcements graph
		// resolves (not deleted, parseable).
		other = graph.Latest(in.Events)[in.Author]
	}
	if other == nil {
		return out
	}
	// Identity is read as graph reads it (one rule for the `r` euc commit).
	theirs, err1 := graph.ParseAnnouncement(other)
	ours, err2 := graph.ParseAnnouncement(ref)
	if err1 != nil || err2 != nil {
		return out
	}
	if a, b := theirs.EUC, ours.EUC; a != "" && b != "" && a != b {
		out = append(out, IdentityChange{Field: "r euc", Who: named, Before: a, After: b})
	} else if c, ok := rootWithoutEUC(in, theirs.EUC, ours.EUC, named); ok {
		out = append(out, c)
	}
	// `u` both ways: an upstream either side names and the other does not
	// is a different fork relationship.
	ua, ub := slices.Sorted(slices.Values(theirs.Upstreams)), slices.Sorted(slices.Values(ours.Upstreams))
	if !slices.Equal(ua, ub) {
		out = append(out, IdentityChange{Field: "u", Who: named, Before: join(ua, " "), After: join(ub, " ")})
	}
	return out
}

// minus returns the members of a not in b, sorted.
func minus(a, b []string) []string {
	out := []string{}
	for _, x := range a {
		if !slices.Contains(b, x) && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

// Fingerprint names every announcement, state and deletion event a preview
// used: the latest kind 30617 and 30618 per author ("30617:<pubkey>" ->
// id) and every deletion ("5:<id>"). The command compares a fresh
// fingerprint with the preview's immediately before signing.
func Fingerprint(events []*nostr.Event) map[string]string {
	latest := map[string]*nostr.Event{}
	out := map[string]string{}
	for _, e := range events {
		switch e.Kind {
		case graph.KindAnnouncement, graph.KindState:
			k := kindKey(e)
			if cur, ok := latest[k]; !ok || graph.Newer(e, cur) {
				latest[k] = e
			}
		case graph.KindDeletion:
			out["5:"+e.ID] = e.ID
		}
	}
	for k, e := range latest {
		out[k] = e.ID
	}
	return out
}

func kindKey(e *nostr.Event) string {
	if e.Kind == graph.KindAnnouncement {
		return "30617:" + e.PubKey
	}
	return "30618:" + e.PubKey
}

// FingerprintChanges lists the keys whose event differs between a preview's
// fingerprint and a fresh one (added, removed or replaced), sorted.
func FingerprintChanges(preview, fresh map[string]string) []string {
	var out []string
	for k, id := range preview {
		if fresh[k] != id {
			out = append(out, k)
		}
	}
	for k := range fresh {
		if _, ok := preview[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// DescribeFingerprintKeys renders FingerprintChanges keys ("30617:<hex>",
// "30618:<hex>", a deletion id) as people say them, for the concurrent-change
// messages of both write pipelines.
func DescribeFingerprintKeys(keys []string) []string {
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		kind, rest, _ := strings.Cut(k, ":")
		switch kind {
		case "30617":
			out = append(out, "announcement of "+graph.Npub(rest))
		case "30618":
			out = append(out, "repository state of "+graph.Npub(rest))
		default:
			out = append(out, "deletion "+rest)
		}
	}
	return out
}
