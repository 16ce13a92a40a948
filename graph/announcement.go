package graph

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
)

// Announcement is a parsed kind 30617 event: roles, legacy listings and
// metadata. Unknown tags are kept in order for the write side.
type Announcement struct {
	Event      *nostr.Event
	Author     string
	Identifier string

	Roles        []RoleRecord // every M/m/o tag, valid or not, in tag order
	Legacy       []string     // values of the first `maintainers` tag, as written
	HasLegacyTag bool
	LegacyTags   int // number of `maintainers` tags (more than one is a mismatch)

	Name, Description  string
	Clone, Web, Relays []string
	EUC                string
	Upstreams          []string
	Hashtags           []string
	Unknown            []nostr.Tag
}

// ParseAnnouncement parses a kind 30617 event. Self-defer records are marked
// invalid here because validity depends on the author.
func ParseAnnouncement(evt *nostr.Event) (*Announcement, error) {
	if evt == nil {
		return nil, errors.New("no event")
	}
	if evt.Kind != KindAnnouncement {
		return nil, fmt.Errorf("event %s is kind %d, not a repository announcement (%d)", evt.ID, evt.Kind, KindAnnouncement)
	}
	if !isLowerHex64(evt.PubKey) {
		return nil, fmt.Errorf("event %s has a malformed author pubkey", evt.ID)
	}
	a := &Announcement{Event: evt, Author: evt.PubKey}
	roleTags := 0
	for _, tag := range evt.Tags {
		if len(tag) > 0 && IsRoleLetter(tag[0]) {
			roleTags++
		}
	}
	if roleTags > 0 {
		a.Roles = make([]RoleRecord, 0, roleTags)
	}
	haveD := false
	for i, tag := range evt.Tags {
		if len(tag) == 0 {
			a.Unknown = append(a.Unknown, copyTag(tag))
			continue
		}
		switch name := tag[0]; {
		case name == "d" && !haveD && len(tag) >= 2:
			a.Identifier, haveD = tag[1], true
		case IsRoleLetter(name):
			r := ParseRoleRecord(tag)
			r.Index = i
			if r.Valid && r.Defer && r.Subject == a.Author {
				r.Valid, r.Problem = false, ProblemSelfDefer
			}
			a.Roles = append(a.Roles, r)
		case name == "maintainers":
			a.LegacyTags++
			if !a.HasLegacyTag {
				a.HasLegacyTag = true
				a.Legacy = tag[1:] // shares the immutable event's tag
			}
		case name == "name" && len(tag) >= 2 && a.Name == "":
			a.Name = tag[1]
		case name == "description" && len(tag) >= 2 && a.Description == "":
			a.Description = tag[1]
		case name == "clone":
			a.Clone = append(a.Clone, tag[1:]...)
		case name == "web":
			a.Web = append(a.Web, tag[1:]...)
		case name == "relays":
			a.Relays = append(a.Relays, tag[1:]...)
		case name == "r" && a.EUC == "" && IsEUCTag(tag):
			a.EUC = tag[1]
		case name == "u" && len(tag) >= 2:
			a.Upstreams = append(a.Upstreams, tag[1])
		case name == "t" && len(tag) >= 2:
			a.Hashtags = append(a.Hashtags, tag[1])
		default:
			a.Unknown = append(a.Unknown, copyTag(tag))
		}
	}
	if !haveD {
		return nil, fmt.Errorf("announcement %s has no d tag", evt.ID)
	}
	return a, nil
}

// IsEUCTag reports an earliest-unique-commit tag: ["r", <40-hex commit>]
// with or without the "euc" marker, as ngit reads it. An `r` tag holding
// anything else (a URL) names no commit. The first such tag is an
// announcement's EUC.
func IsEUCTag(tag nostr.Tag) bool {
	return len(tag) >= 2 && isLowerHexLen(tag[1], 40) && (len(tag) == 2 || tag[2] == "euc")
}

// RoleAware reports whether any M, m or o tag is present, valid or not: then
// indexed roles are authoritative and `maintainers` is only a projection.
func (a *Announcement) RoleAware() bool { return len(a.Roles) > 0 }

// ImplicitSole reports an announcement with no role or legacy tag: its
// author is the implicit sole maintainer.
func (a *Announcement) ImplicitSole() bool { return !a.RoleAware() && !a.HasLegacyTag }

// ActiveLeadTargets returns the distinct subjects of valid active M records,
// in tag order. More than one is a conflicting lead view.
func (a *Announcement) ActiveLeadTargets() []string {
	var out []string
	for _, r := range a.Roles {
		if r.Letter == RoleLead && r.Active() && !slices.Contains(out, r.Subject) {
			out = append(out, r.Subject)
		}
	}
	return out
}

// SingleLeadTarget counts the distinct subjects of valid active M records:
// n is 0 (none), 1 (target is that subject) or 2 (several; counting stops
// there). It does not allocate; the lead walk calls it per hop.
func (a *Announcement) SingleLeadTarget() (target string, n int) {
	for _, r := range a.Roles {
		if r.Letter == RoleLead && r.Active() && r.Subject != target {
			if n == 0 {
				target, n = r.Subject, 1
			} else {
				return target, 2
			}
		}
	}
	return target, n
}

// DeclaresLead reports an active self-M: the author declares themself lead
// (the current lead, or a maintainer preparing a handover with their own
// complete roster).
func (a *Announcement) DeclaresLead() bool {
	for _, r := range a.Roles {
		if r.Letter == RoleLead && r.Subject == a.Author && r.Active() {
			return true
		}
	}
	return false
}

// LegacyListings returns the valid 64-hex values of the legacy tag, without
// duplicates and without the author (ngit adds the author when reading).
func (a *Announcement) LegacyListings() []string {
	var out []string
	seen := map[string]bool{a.Author: true}
	for _, v := range a.Legacy {
		if isLowerHex64(v) && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// ExpectedProjection is the exact `maintainers` compatibility set of a
// role-aware announcement: the subjects of valid active M and m records,
// invitations included, sorted and without duplicates. An empty result is
// emitted as ["maintainers"].
func ExpectedProjection(a *Announcement) []string {
	out := []string{}
	for _, r := range a.Roles {
		if (r.Letter == RoleLead || r.Letter == RoleMaint) && r.Active() {
			out = append(out, r.Subject)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ProjectionOK reports whether a role-aware announcement's `maintainers`
// tag is exactly ExpectedProjection, without allocating for the usual
// short rosters.
func ProjectionOK(a *Announcement) bool {
	if !a.HasLegacyTag || a.LegacyTags != 1 {
		return false
	}
	if len(a.Roles) > shortScan || len(a.Legacy) > shortScan {
		_, _, ok := ProjectionDiff(a)
		return ok
	}
	for i, v := range a.Legacy {
		if slices.Contains(a.Legacy[:i], v) {
			return false
		}
		listed := false
		for _, r := range a.Roles {
			if r.Subject == v && r.Letter != RoleModerator && r.Active() {
				listed = true
				break
			}
		}
		if !listed {
			return false
		}
	}
	for _, r := range a.Roles {
		if r.Letter != RoleModerator && r.Active() && !slices.Contains(a.Legacy, r.Subject) {
			return false
		}
	}
	return true
}

// ProjectionDiff compares a role-aware announcement's `maintainers` tag with
// ExpectedProjection. ok is false when the tag is absent, repeated, holds a
// duplicate value, or differs as a set; missing and extra name both sides
// (sorted, without duplicates).
func ProjectionDiff(a *Announcement) (missing, extra []string, ok bool) {
	want := ExpectedProjection(a)
	have := slices.Clone(a.Legacy)
	slices.Sort(have)
	n := len(have)
	have = slices.Compact(have)
	dup := len(have) != n
	i, j := 0, 0
	for i < len(want) || j < len(have) {
		switch {
		case j == len(have) || i < len(want) && want[i] < have[j]:
			missing = append(missing, want[i])
			i++
		case i == len(want) || have[j] < want[i]:
			extra = append(extra, have[j])
			j++
		default:
			i++
			j++
		}
	}
	ok = a.HasLegacyTag && a.LegacyTags == 1 && !dup && len(missing) == 0 && len(extra) == 0
	return missing, extra, ok
}
