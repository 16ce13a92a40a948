package graph

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/roster-cli/roster/suggest"
)

// Finding is one health or guidance item. Severity is relative to the
// viewer: an author-scoped problem is an error for its affected signer and
// a warning for everyone else. Command is the exact command to run (nil
// when only a signer-reviewed manual repair exists).
type Finding struct {
	Severity string           `json:"severity"` // error | warning
	Code     string           `json:"code"`
	Author   string           `json:"author,omitempty"`  // the affected signer
	Subject  string           `json:"subject,omitempty"` // the person the finding is about, if any
	Message  string           `json:"message"`
	Command  *suggest.Command `json:"command,omitempty"`
	// Text is Message as parts, the people it names as values
	// (suggest.Who) for the human renderer to name; Message is its plain
	// text. MessageText falls back to Message when they disagree.
	Text suggest.Block `json:"-"`
}

// MessageText is the message as parts: Text while it says Message, else
// Message as plain text.
func (f Finding) MessageText() suggest.Block {
	if f.Text != nil && f.Text.String() == f.Message {
		return f.Text
	}
	return suggest.Text(f.Message)
}

// said sets the finding's message from its parts.
func (f Finding) said(t suggest.Block) Finding {
	f.Text, f.Message = t, t.String()
	return f
}

// who is the person pubkey as a value messages name.
func who(pubkey string) suggest.Person { return suggest.Person(Npub(pubkey)) }

var sayf = suggest.Sayf

// Severities.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Stable health codes; docs/graph.md lists what each means.
const (
	CodeProjectionMismatch     = "maintainers-projection-mismatch"
	CodeSelfDefer              = "self-defer"
	CodeMalformedRoleRecord    = "malformed-role-record"
	CodeDuplicateRoleRecord    = "duplicate-role-record"
	CodeThirdPartyAssignment   = "third-party-assignment"
	CodeRemovedByLead          = "removed-by-lead"
	CodeIndirectLeadPointer    = "indirect-lead-pointer"
	CodeFollowLead             = "follow-lead"
	CodeLeadPending            = "lead-pending"
	CodeLeadConflict           = "lead-conflict"
	CodePendingAcknowledgement = "pending-acknowledgement"
)

type healthInput struct {
	parts               map[string]*participant
	s                   *snapshot
	lr                  leadResult
	confirmed, assigned map[string]bool
	selected, viewer    string
	identifier          string
	pending             []PendingAck
}

func (h *healthInput) severity(author string) string {
	if h.viewer != "" && h.viewer == author {
		return SeverityError
	}
	return SeverityWarning
}

// whose phrases an announcement's owner relative to the viewer.
func (h *healthInput) whose(author string) suggest.Block {
	if author == h.viewer {
		return suggest.Text("your announcement")
	}
	return sayf("the announcement by %s", who(author))
}

func healthOf(h *healthInput) []Finding {
	var out []Finding
	for _, author := range h.relevantAuthors() {
		out = append(out, h.recordFindings(h.parts[author])...)
	}
	out = append(out, h.leadFindings()...)
	if h.lr.source == LeadExplicit {
		out = append(out, h.thirdPartyFindings()...)
		out = append(out, h.removedFindings()...)
		out = append(out, h.indirectFindings()...)
	}
	for _, p := range h.pending {
		out = append(out, Finding{
			Severity: SeverityWarning, Code: CodePendingAcknowledgement, Author: p.Author, Subject: p.Pubkey,
			Command: ptr(p.Command),
		}.said(ackMessage(h, p)))
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		if a.Author != b.Author {
			return a.Author < b.Author
		}
		if a.Subject != b.Subject {
			return a.Subject < b.Subject
		}
		return a.Message < b.Message
	})
	if out == nil {
		out = []Finding{}
	}
	return out
}

// relevantAuthors are the announcements this view is about: the selected
// maintainer, the lead path, confirmed and invited maintainers, and the
// viewer. Unrelated same-identifier repositories are not reported.
func (h *healthInput) relevantAuthors() []string {
	out := make([]string, 0, len(h.confirmed)+len(h.assigned)+2)
	for p := range h.assigned {
		if !h.confirmed[p] && h.parts[p] != nil {
			out = append(out, p)
		}
	}
	for p := range h.confirmed {
		out = append(out, p)
	}
	// The few extra names can only repeat one another. No sort: findings
	// are sorted at the end.
	var extra []string
	for _, p := range append([]string{h.selected, h.viewer}, h.lr.path...) {
		if !h.confirmed[p] && !h.assigned[p] && h.parts[p] != nil && !slices.Contains(extra, p) {
			extra = append(extra, p)
		}
	}
	return append(out, extra...)
}

// recordFindings reports an author's own encoding problems: the
// compatibility projection, unparseable and self-defer records, and
// duplicate records.
func (h *healthInput) recordFindings(p *participant) []Finding {
	a := p.ann
	var out []Finding
	if a.RoleAware() && !ProjectionOK(a) {
		out = append(out, h.projectionFinding(a))
	}
	for i, r := range a.Roles {
		switch {
		case r.Problem == ProblemSelfDefer:
			out = append(out, h.selfDeferFinding(p, i))
		case !r.Valid:
			out = append(out, Finding{Severity: h.severity(a.Author), Code: CodeMalformedRoleRecord, Author: a.Author, Subject: r.Subject}.said(sayf("%s has an unparseable role record %q (%s); it carries no role semantics and must be corrected manually", h.whose(a.Author), strings.Join(r.Raw, ","), r.Problem)))
		}
	}
	if hasDuplicateRecords(a) {
		out = append(out, h.duplicateFindings(a)...)
	}
	return out
}

// projectionFinding describes how a role-aware announcement's `maintainers`
// tag differs from its indexed roles.
func (h *healthInput) projectionFinding(a *Announcement) Finding {
	missing, extra, _ := ProjectionDiff(a)
	msg := sayf("%s has an inconsistent `maintainers` compatibility tag; indexed `M` and `m` roles are authoritative", h.whose(a.Author))
	if !a.HasLegacyTag {
		msg = sayf("%s; the tag is missing", msg)
	} else if a.LegacyTags > 1 {
		msg = sayf("%s; it appears %d times", msg, a.LegacyTags)
	}
	if len(missing) > 0 {
		msg = sayf("%s; missing active roles: %s", msg, suggest.People(Npubs(missing), " "))
	}
	if len(extra) > 0 {
		msg = sayf("%s; listed without an active role: %s", msg, suggest.People(Npubs(extra), " "))
	}
	return Finding{Severity: h.severity(a.Author), Code: CodeProjectionMismatch, Author: a.Author,
		Command: ptr(CommandFixMaintainers())}.said(sayf("%s; this repair does not add or remove active maintainers", msg))
}

// duplicateFindings reports each (subject, letter) that has more than one
// record, in subject then letter order.
func (h *healthInput) duplicateFindings(a *Announcement) []Finding {
	var keys []historyKey
	for _, r := range a.Roles {
		if isLowerHex64(r.Subject) {
			keys = append(keys, historyKey{r.Subject, r.Letter})
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].subject != keys[j].subject {
			return keys[i].subject < keys[j].subject
		}
		return keys[i].letter < keys[j].letter
	})
	var out []Finding
	for i := 0; i < len(keys); {
		j := i
		for j < len(keys) && keys[j] == keys[i] {
			j++
		}
		if n := j - i; n > 1 {
			k := keys[i]
			out = append(out, Finding{Severity: h.severity(a.Author), Code: CodeDuplicateRoleRecord, Author: a.Author, Subject: k.subject}.said(sayf("%s has %d %q records for %s; a pubkey may have one record per role letter", h.whose(a.Author), n, string(k.letter), who(k.subject))))
		}
		i = j
	}
	return out
}

// selfDeferFinding: an unsuperseded self-defer blocks its author (error for
// them); a superseded one is a non-blocking warning with a suggested repair.
func (h *healthInput) selfDeferFinding(p *participant, i int) Finding {
	a, r := p.ann, p.ann.Roles[i]
	f := Finding{Code: CodeSelfDefer, Author: a.Author, Subject: a.Author}
	raw := strings.Join(r.Raw, ",")
	if a.SupersededSelfDefer(i) {
		f.Severity = SeverityWarning
		return f.said(sayf("%s ends its own role record %q in defer; a later active self-role supersedes it for current authority, but the earlier interval stays unresolved until the author signs a numeric end", h.whose(a.Author), raw))
	}
	f.Severity = h.severity(a.Author)
	msg := sayf("%s ends its own role record %q in defer; a self-role cannot be deferred, so its author has no current role until it is repaired or replaced", h.whose(a.Author), raw)
	if h.simpleAcceptRepair(p, r) {
		msg = sayf("%s; accept the current invitation to publish a valid acceptance", msg)
		f.Command = ptr(CommandAccept())
	}
	return f.said(msg)
}

// simpleAcceptRepair: acceptance may combine with the repair only for one
// simple [role, author, start, defer] maintainer record with "either no
// successor or one unambiguous signed successor boundary" and no other
// ended or restarted self-role history, while "the resolved lead still has
// an active invitation" (in a leadless view, a confirmed maintainer's).
func (h *healthInput) simpleAcceptRepair(p *participant, r RoleRecord) bool {
	author := p.ann.Author
	if r.Letter == RoleModerator || len(r.Raw) != 4 || h.confirmed[author] || !h.invitedForAccept(author) {
		return false
	}
	successors := 0
	for _, o := range p.ann.Roles {
		if o.Subject != author || o.Index == r.Index {
			continue
		}
		// Anything but an active record with exactly one signed start is
		// another self-defer, malformed, ended or restarted history, or an
		// untimed role that signed boundaries cannot order.
		if !o.Valid || !o.Active() || len(o.Boundaries) != 1 {
			return false
		}
		if o.Letter != RoleModerator {
			successors++
		}
	}
	return successors <= 1
}

// invitedForAccept: in an explicit view only the lead's active roster
// invites; otherwise any confirmed maintainer's active listing does.
func (h *healthInput) invitedForAccept(author string) bool {
	if h.lr.source != LeadExplicit {
		return h.assigned[author]
	}
	for _, r := range h.parts[h.lr.lead].ann.Roles {
		if r.Subject == author && r.Letter != RoleModerator && r.Active() {
			return true
		}
	}
	return false
}

func (h *healthInput) leadFindings() []Finding {
	lr := h.lr
	path := suggest.People(Npubs(lr.path), " ")
	switch lr.source {
	case LeadPending:
		f := Finding{Severity: SeverityError, Code: CodeLeadPending, Author: lr.failAt}
		msg := sayf("the lead pointer path %s is pending: %s (%s); no maintainer authority is seeded from this coordinate", path, lr.reason, who(lr.failAt))
		if len(lr.missing) > 0 {
			// The target completes the roster one add at a time; a standing
			// acceptance confirms immediately.
			msg = sayf("%s; ask %s to list each of them, starting with: %s", msg, who(lr.failAt), CommandAddMaintainer(lr.missing[0]))
			f.Command = ptr(CommandAddMaintainer(lr.missing[0]))
		}
		return []Finding{f.said(msg)}
	case LeadConflict:
		return []Finding{Finding{Severity: SeverityError, Code: CodeLeadConflict, Author: lr.failAt}.said(
			sayf("the lead pointer path %s conflicts: %s (%s); no maintainer authority is seeded from this coordinate until a signer publishes a valid replacement", path, lr.reason, who(lr.failAt)))}
	case LeadExplicit:
		if lr.lead != h.selected {
			return []Finding{{Severity: SeverityWarning, Code: CodeFollowLead, Author: h.selected, Subject: lr.lead,
				Message: fmt.Sprintf("this checkout uses %s/%s; its lead pointer resolves to %s/%s", Npub(h.selected), h.identifier, Npub(lr.lead), h.identifier),
				Command: ptr(CommandFollowLead())}}
		}
	}
	return nil
}

// thirdPartyFindings: a confirmed co-maintainer's active m or o naming
// somebody other than themselves or the lead (ThirdPartySubjects) bypasses
// the lead roster; an m is a real assignment (resolved honestly), an o
// assigns nothing in a lead-shaped view, but both are the shape the edit
// gates hold up, so both signers are told. The lead's recovery covers the
// subject in the role assigned: --add-moderator for an o, --add-maintainer
// for an m.
func (h *healthInput) thirdPartyFindings() []Finding {
	lead := h.lr.lead
	var out []Finding
	for x := range h.confirmed {
		// A confirmed maintainer with an active self-M publishes their own
		// complete roster (a lead preparing a handover, or the old lead of a
		// coordinate that has not forwarded yet): the lead-preparation
		// shape, not a co-maintainer's third-party edge.
		a := h.parts[x].ann
		if x == lead || a.DeclaresLead() {
			continue
		}
		for _, s := range ThirdPartySubjects(a, lead) {
			role := AssignedRole(a, s)
			cover := CommandCover(role, s)
			co := Finding{Severity: h.severity(x), Code: CodeThirdPartyAssignment, Author: x, Subject: s, Command: ptr(CommandFollowLead())}
			ld := Finding{Severity: h.severity(lead), Code: CodeThirdPartyAssignment, Author: lead, Subject: s}
			if LeadCovers(h.parts[lead].ann, role, s) {
				co = co.said(sayf("%s directly assigns %s in a lead-shaped repository; let %s manage the co-maintainer roster", h.whose(x), who(s), who(lead)))
				ld = ld.said(sayf("%s directly assigns %s instead of following the lead roster; ask %s to repair their announcement with: %s", who(x), who(s), who(x), CommandFollowLead()))
				ld.Command = ptr(CommandFollowLead())
			} else {
				co = co.said(sayf("%s directly assigns %s, but the lead does not; ask %s to run: %s; then repair the announcement", h.whose(x), who(s), who(lead), cover))
				ld = ld.said(sayf("%s directly assigns %s instead of following the lead roster; first retain %s through the lead roster with: %s; then ask %s to run: %s", who(x), who(s), who(s), cover, who(x), CommandFollowLead()))
				ld.Command = ptr(cover)
			}
			out = append(out, co, ld)
		}
	}
	return out
}

// removedFindings: somebody who still holds an active self-role and lists a
// confirmed maintainer, whom no confirmed maintainer assigns any more, but
// whose role the component's records remember, was removed by the lead.
func (h *healthInput) removedFindings() []Finding {
	lead := h.lr.lead
	var candidates []string
	for author, p := range h.parts {
		if !h.confirmed[author] && !h.assigned[author] && p.eligible() && p.ann.RoleAware() {
			candidates = append(candidates, author)
		}
	}
	if len(candidates) == 0 {
		return nil
	}
	remembered := map[string]bool{}
	for x := range h.confirmed {
		for _, r := range h.parts[x].ann.Roles {
			if r.Valid && r.Letter != RoleModerator {
				remembered[r.Subject] = true
			}
		}
	}
	var out []Finding
	for _, author := range candidates {
		p := h.parts[author]
		if !remembered[author] {
			continue
		}
		if _, hasSelf := selfStart(p.ann); !hasSelf {
			continue
		}
		standing := false
		for _, y := range p.listings {
			if h.confirmed[y] {
				standing = true
				break
			}
		}
		if !standing {
			continue
		}
		removed := suggest.Block{suggest.Who(Npub(author))}
		if author == h.viewer {
			removed = suggest.Text("you")
		}
		out = append(out, Finding{Severity: h.severity(author), Code: CodeRemovedByLead, Author: author, Subject: lead,
			Command: ptr(CommandFollowLead())}.said(
			sayf("%s no longer lists %s as a maintainer of this repository; update the announcement and retain its history with: %s", who(lead), removed, CommandFollowLead())))
	}
	return out
}

// indirectFindings: a confirmed maintainer whose active M reaches the lead
// through somebody else is told to point directly. Advisory.
func (h *healthInput) indirectFindings() []Finding {
	lead := h.lr.lead
	var out []Finding
	for x := range h.confirmed {
		if x == lead {
			continue
		}
		t, n := h.parts[x].ann.SingleLeadTarget()
		if n == 1 && t != lead && t != x {
			out = append(out, Finding{Severity: SeverityWarning, Code: CodeIndirectLeadPointer, Author: x, Subject: t,
				Command: ptr(CommandFollowLead())}.said(
				sayf("%s still reaches %s/%s through %s/%s; point directly to the lead", h.whose(x), Npub(lead), h.identifier, Npub(t), h.identifier)))
		}
	}
	return out
}

// npubs is the space-separated Npubs of pks, as messages list people.
func npubs(pks []string) string { return strings.Join(Npubs(pks), " ") }

// ackMessage follows the spec's guidance text for an observed transition.
func ackMessage(h *healthInput, p PendingAck) suggest.Block {
	what := p.Phrase()
	where := suggest.Text("your replicated membership history")
	if p.Author != h.viewer {
		where = sayf("the replicated membership history of %s", who(p.Author))
	}
	return sayf("%s %s at %s; record this in %s", who(p.Pubkey), what, HumanTime(p.Time), where)
}

// hasDuplicateRecords is the allocation-free pre-check for the usual short
// announcement; a long roster takes the sorting path in duplicateFindings.
func hasDuplicateRecords(a *Announcement) bool {
	if len(a.Roles) > shortScan {
		return true
	}
	for i, r := range a.Roles {
		for _, o := range a.Roles[:i] {
			if o.Letter == r.Letter && o.Subject == r.Subject && isLowerHex64(r.Subject) {
				return true
			}
		}
	}
	return false
}

// ptr is c as a finding's optional command.
func ptr(c suggest.Command) *suggest.Command { return &c }
