package preflight

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// view is the part of one graph resolution that preflight reasons about. It is
// filled from graph.Resolution by fromResolution (graphadapter.go); preflight
// never computes membership itself.
type view struct {
	selected   string
	lead       string // "" when the lead source names nobody
	leadSource graph.LeadSource
	leadPath   []string
	confirmed  []string // maintainers, sorted
	invited    []string
	modConfirm []string
	modInvited []string
	acks       []graph.PendingAck             // graph's pending transitions whose Author is the viewer
	latest     map[string]*nostr.Event        // latest announcement per author, every same-identifier author
	anns       map[string]*graph.Announcement // graph's parse of the same announcements (anns[a].Event == latest[a])
	history    []historyRecord
	eff        map[string]int64 // graph's effective start of each confirmed maintainer
}

// historyRecord is the resolved (precedence-chosen) history of one role.
type historyRecord struct {
	letter, subject string
	starts          []int64 // start, end, start, ...; odd length = still open
	invitation      bool    // the lead's active assignment of somebody not yet confirmed
}

func (v *view) isConfirmed(p string) bool { return slices.Contains(v.confirmed, p) }
func (v *view) isInvited(p string) bool   { return slices.Contains(v.invited, p) }

// leadShaped reports whether the view resolves a lead who manages the roster.
func (v *view) leadShaped() bool {
	return v.leadSource == graph.LeadExplicit || v.leadSource == graph.LeadImplicitSole
}

// activeSubjects returns the subjects of author's active records with the given letters.
// It reads graph's parse of the announcement, which every resolution
// already made, instead of parsing the tags again per call.
func (v *view) activeSubjects(author string, letters ...string) []string {
	a := v.anns[author]
	if a == nil {
		return nil
	}
	var out []string
	for _, r := range a.Roles {
		if r.Active() && slices.Contains(letters, string(r.Letter)) && !slices.Contains(out, r.Subject) {
			out = append(out, r.Subject)
		}
	}
	if !a.RoleAware() && (slices.Contains(letters, "m") || slices.Contains(letters, "M")) {
		out = append(out, a.LegacyListings()...)
	}
	return out
}

// lists reports whether author's latest announcement actively lists subject as a maintainer.
func (v *view) lists(author, subject string) bool {
	return slices.Contains(v.activeSubjects(author, "M", "m"), subject)
}

// listersOf returns the confirmed maintainers of v whose announcement actively
// lists subject: the real edges that retain or import them.
func (v *view) listersOf(subject string, among []string) []Edge {
	var out []Edge
	for _, a := range among {
		if a == subject {
			continue
		}
		if v.lists(a, subject) {
			out = append(out, Edge{From: a, To: subject})
		}
	}
	return out
}

// Edge is one active maintainer listing from one announcement author to a subject.
type Edge struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// legacyListings is graph's reading of a role-less announcement's legacy
// roster: the valid 64-hex values of its first `maintainers` tag, without
// duplicates and without the author (ngit adds the author implicitly).
func legacyListings(tags nostr.Tags, author string) []string {
	a, err := graph.ParseAnnouncement(&nostr.Event{Kind: graph.KindAnnouncement, PubKey: author, Tags: tags})
	if err != nil {
		return nil
	}
	return a.LegacyListings()
}
