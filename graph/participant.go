package graph

import "slices"

// participant is what the graph needs from one author's latest announcement.
type participant struct {
	ann *Announcement
	// listings are the author's current maintainer listings of others:
	// valid active M/m subjects, or legacy `maintainers` values.
	listings []string
	// departed: a valid numeric self-role end with no active self M/m.
	// It vetoes every assignment of the author.
	departed bool
	// blocked: an unsuperseded self-defer, or self-records that are
	// exclusively unparseable. Not a departure, but no authority either.
	blocked bool
	// selfDeferSuperseded lists self-defer records that a later active
	// self-role supersedes (health stays a non-blocking warning).
	selfDeferSuperseded map[int]bool
}

// eligible reports whether the author can be confirmed or seed a fixpoint.
func (p *participant) eligible() bool { return p != nil && !p.departed && !p.blocked }

func analyze(a *Announcement) *participant {
	p := &participant{ann: a}
	if !a.RoleAware() {
		if a.HasLegacyTag {
			p.listings = a.LegacyListings()
		}
		return p
	}
	// Most announcements list a handful of people; only a lead's roster is
	// long enough for a set to beat a scan.
	var seen map[string]bool
	if len(a.Roles) > 16 {
		seen = make(map[string]bool, len(a.Roles))
	}
	var validSelfMaint, activeSelfMaint, endedSelfMaint, malformedSelf, validSelf bool
	var activeSelfStarts []int64 // signed starts of active valid self-roles (any letter)
	for _, r := range a.Roles {
		self := r.Subject == a.Author
		if r.Valid && self {
			validSelf = true
			if r.Active() && !r.Untimed() {
				activeSelfStarts = append(activeSelfStarts, r.LastStart())
			}
		}
		if !r.Valid && self && r.Problem != ProblemSelfDefer {
			malformedSelf = true
		}
		if r.Letter == RoleModerator || !r.Valid {
			continue
		}
		if self {
			validSelfMaint = true
			if r.Active() {
				activeSelfMaint = true
			} else if r.NumericallyEnded() {
				endedSelfMaint = true
			}
			continue
		}
		if !r.Active() {
			continue
		}
		if seen != nil {
			if seen[r.Subject] {
				continue
			}
			seen[r.Subject] = true
		} else if slices.Contains(p.listings, r.Subject) {
			continue
		}
		p.listings = append(p.listings, r.Subject)
	}
	p.departed = validSelfMaint && !activeSelfMaint && endedSelfMaint
	// An invalid self-defer blocks unless a valid active self-role signed a
	// start strictly after the defer record's last valid start.
	for i, r := range a.Roles {
		if r.Problem != ProblemSelfDefer {
			continue
		}
		superseded := false
		for _, s := range activeSelfStarts {
			if s > r.LastStart() {
				superseded = true
			}
		}
		if superseded {
			if p.selfDeferSuperseded == nil {
				p.selfDeferSuperseded = map[int]bool{}
			}
			p.selfDeferSuperseded[i] = true
		} else {
			p.blocked = true
		}
	}
	if malformedSelf && !validSelf {
		p.blocked = true
	}
	return p
}
