package report

import (
	"errors"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// Statuses of a project's member repository (ProjectRepository.Status).
const (
	RepositoryResolved   = "resolved"   // the relays hold its announcement; lead, maintainers and health follow
	RepositoryNotFound   = "not-found"  // every relay asked answered, none holds an announcement
	RepositoryIncomplete = "incomplete" // a relay did not answer (complete evidence), or none did
	RepositoryStale      = "stale"      // a relay answered with an older version than one verified before
	RepositoryNotRead    = "not-read"   // beyond discovery.MaxMany members: not asked about
)

// Verdicts of a member repository's health (RepositoryHealth.Verdict).
const (
	VerdictHealthy   = "healthy"
	VerdictUnhealthy = "unhealthy"
	VerdictUnknown   = "unknown" // not resolved: no verdict
)

// ProjectRepository is one member repository of a project, an entry of
// the `repositories` array of roster.project/v2 and
// roster.project-health/v1: who leads it, its confirmed maintainers (by
// name) and its health verdict, from the one discovery of every member.
type ProjectRepository struct {
	// Address is the project's `a` value, 30617:<owner-hex>:<d>; Relay
	// its relay hint ("" when none).
	Address    string     `json:"address"`
	Relay      string     `json:"relay,omitempty"`
	Coordinate Coordinate `json:"coordinate"`
	Status     string     `json:"status"`
	// Reason says, for a status other than resolved, why in words.
	Reason string `json:"reason,omitempty"`
	// Lead is the lead maintainer (null when none or not resolved);
	// Maintainers the confirmed maintainers, by pubkey.
	Lead        *Member          `json:"lead"`
	Maintainers []Member         `json:"maintainers"`
	Health      RepositoryHealth `json:"health"`
	// Findings are the repository's health findings (roster.repo/v2's
	// `health` objects).
	Findings []Finding `json:"findings"`
	Complete bool      `json:"complete"`
	// Names are the people's profile names (human output).
	Names Names `json:"-"`
	// TimedOut: a relay asked about it gave no answer before the timeout,
	// so a longer --timeout may resolve it (a refused connection would not).
	TimedOut bool `json:"-"`
}

// RepositoryHealth is one repository's verdict as `repo health` gives it:
// healthy when no finding is an error and, under strict, no warning a
// current maintainer can act on (every warning under strict=all).
type RepositoryHealth struct {
	Verdict        string `json:"verdict"`
	Errors         int    `json:"errors"`
	Warnings       int    `json:"warnings"`
	GatingWarnings int    `json:"gating_warnings"`
}

// ProjectRepositoryOf is the entry of member address (with its relay
// hint) read as m; strict and all are `repo health`'s --strict and
// --strict=all.
func ProjectRepositoryOf(address, relay string, m discovery.Many, strict, all bool) ProjectRepository {
	c := m.Selection.Coordinate
	out := ProjectRepository{Address: address, Relay: relay, Status: RepositoryResolved,
		Coordinate: Coordinate{Kind: c.Kind, Pubkey: c.Pubkey, Npub: graph.Npub(c.Pubkey), Identifier: c.Identifier,
			Naddr: gitstate.EncodeNaddr(c, hints(relay))},
		Maintainers: []Member{}, Findings: []Finding{}, Health: RepositoryHealth{Verdict: VerdictUnknown}}
	if m.View != nil {
		out.Complete = m.View.Complete()
	}
	var nf *discovery.NotFound
	var inc *discovery.Incomplete
	var st *discovery.Stale
	out.TimedOut = timedOut(m.View)
	if errors.As(m.Err, &inc) {
		out.TimedOut = out.TimedOut || timedOut(inc.View)
	}
	switch {
	case errors.As(m.Err, &nf):
		out.Status, out.Reason = RepositoryNotFound, "no relay asked holds an announcement of this repository"
		return out
	case errors.As(m.Err, &inc):
		out.Status, out.Reason = RepositoryIncomplete, "not every relay answered, so the repository's maintainers and health are not established"
		return out
	case errors.As(m.Err, &st):
		out.Status, out.Reason = RepositoryStale, "a relay answered with an older version of an announcement or state than one this machine verified before"
		return out
	case m.Err != nil:
		out.Status, out.Reason = RepositoryIncomplete, m.Err.Error()
		return out
	case m.View == nil || m.View.Resolution == nil:
		out.Status, out.Reason = RepositoryNotRead, "not read"
		return out
	}
	rep := FromView(m.View)
	out.Names = rep.Names
	if rep.LeadMaintainer != nil {
		for _, mm := range rep.Maintainers {
			if mm.Npub == *rep.LeadMaintainer {
				lead := mm
				out.Lead = &lead
			}
		}
		if out.Lead == nil {
			out.Lead = &Member{Npub: *rep.LeadMaintainer, Pubkey: m.View.Resolution.Lead, Status: "confirmed",
				Name: rep.Names.Name(*rep.LeadMaintainer), NIP05: rep.Names.NIP05(*rep.LeadMaintainer)}
		}
	}
	for _, mm := range rep.Maintainers {
		if mm.Status == "confirmed" {
			out.Maintainers = append(out.Maintainers, mm)
		}
	}
	out.Findings = rep.Health
	h := &out.Health
	h.Errors, h.Warnings, h.GatingWarnings = CountFindings(out.Findings, all)
	h.Verdict = VerdictHealthy
	if h.Errors > 0 || strict && h.GatingWarnings > 0 {
		h.Verdict = VerdictUnhealthy
	}
	return out
}

// NotReadRepository is the entry of a member beyond discovery.MaxMany.
func NotReadRepository(address, relay string, c graph.Coordinate) ProjectRepository {
	return ProjectRepository{Address: address, Relay: relay, Status: RepositoryNotRead,
		Reason:      "the project names more member repositories than one read covers; only the first ones (by address) were read",
		Coordinate:  Coordinate{Kind: c.Kind, Pubkey: c.Pubkey, Npub: graph.Npub(c.Pubkey), Identifier: c.Identifier, Naddr: gitstate.EncodeNaddr(c, hints(relay))},
		Maintainers: []Member{}, Findings: []Finding{}, Health: RepositoryHealth{Verdict: VerdictUnknown}}
}

// hints is the relay hint as a list, when it is a relay URL (the hint is
// the project tag's text: anything else is left out of the naddr).
func hints(relay string) []string {
	if u, err := discovery.RelayURL(relay); err == nil && relay != "" {
		return []string{u}
	}
	return nil
}

// timedOut reports whether a relay of v's fetch gave no answer before the
// timeout.
func timedOut(v *discovery.View) bool {
	if v == nil || v.Fetch == nil {
		return false
	}
	for _, r := range v.Fetch.Relays {
		if r.Status == relaypool.StatusTimeout {
			return true
		}
	}
	return false
}
