package graph

import "sort"

// pendingAcks lists history transitions that announcements in a
// lead-shaped view have not recorded yet. The lead acknowledges starts of
// confirmed maintainers whose active record still shows another start, and
// ends of people it still lists who signed a departure or deleted their
// announcement. Every other confirmed co-maintainer is asked to follow the
// lead when their copy lacks a start or end the lead records (computed for
// the viewer). Leadless views have no roster coordinator and get no such
// guidance.
func pendingAcks(parts map[string]*participant, s *snapshot, lr leadResult, confirmed, moderators map[string]bool, eff map[string]int64, viewer string) []PendingAck {
	out := []PendingAck{}
	if lr.source != LeadExplicit {
		return out
	}
	lead := parts[lr.lead].ann
	// The lead's valid records about others. Duplicates (a health finding
	// of their own) may yield duplicate guidance, removed by dedupeAcks.
	leadRecs := make([]*RoleRecord, 0, len(lead.Roles))
	for i := range lead.Roles {
		if rec := &lead.Roles[i]; rec.Valid && rec.Subject != lead.Author {
			leadRecs = append(leadRecs, rec)
		}
	}
	out = append(out, leadAcks(parts, s, lead.Author, leadRecs, confirmed, eff)...)
	// Co-maintainer side, for the viewer only. (Listing it for every
	// co-maintainer would be quadratic in the roster size and nobody else
	// acts on it.)
	if confirmed[viewer] && viewer != lead.Author {
		out = append(out, followerAcks(parts[viewer].ann, lead.Author, leadRecs, confirmed, moderators, eff)...)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Author != b.Author {
			return a.Author < b.Author
		}
		if a.Pubkey != b.Pubkey {
			return a.Pubkey < b.Pubkey
		}
		if a.Transition != b.Transition {
			return a.Transition < b.Transition
		}
		return a.Time < b.Time
	})
	return dedupeAcks(out)
}

// leadAcks are the lead's own unrecorded transitions: a confirmed
// maintainer's effective start its active record does not show, and the
// departure of somebody it still lists.
func leadAcks(parts map[string]*participant, s *snapshot, lead string, leadRecs []*RoleRecord, confirmed map[string]bool, eff map[string]int64) []PendingAck {
	var out []PendingAck
	for _, rec := range leadRecs {
		if rec.Letter == RoleModerator || !rec.Active() {
			continue
		}
		subject := rec.Subject
		if confirmed[subject] {
			if t := eff[subject]; rec.LastStart() != t {
				out = append(out, PendingAck{Author: lead, Pubkey: subject, Transition: TransitionStart, Time: t, Command: CommandAcknowledge(subject)})
			}
			continue
		}
		if end, ok := departureOf(parts, s, subject, rec.LastStart()); ok {
			out = append(out, PendingAck{Author: lead, Pubkey: subject, Transition: TransitionEnd, Time: end, Command: CommandAcknowledge(subject)})
		}
	}
	return out
}

// followerAcks compares a confirmed co-maintainer's copies with the lead's
// effective view: each start or end the lead records that the copy lacks.
func followerAcks(own *Announcement, lead string, leadRecs []*RoleRecord, confirmed, moderators map[string]bool, eff map[string]int64) []PendingAck {
	x := own.Author
	copies := map[historyKey]RoleRecord{}
	for _, rec := range own.Roles {
		if rec.Valid {
			copies[historyKey{rec.Subject, rec.Letter}] = rec
		}
	}
	var out []PendingAck
	for _, rec := range leadRecs {
		k := historyKey{rec.Subject, rec.Letter}
		// M copies describe the lead's own pointers; a co-maintainer
		// replicates membership (m) and moderation (o) intervals.
		if k.subject == x || k.subject == lead || k.letter == RoleLead {
			continue
		}
		// An invitation is not history yet; a confirmed moderator's o is,
		// as follow-lead copies it (a moderator is confirmed by the
		// moderator roster, not the maintainer fixpoint).
		if rec.Active() && !confirmed[k.subject] && !(k.letter == RoleModerator && moderators[k.subject]) {
			continue
		}
		want := rec.LastStart()
		if confirmed[k.subject] && k.letter != RoleModerator {
			want = eff[k.subject]
		}
		cp, has := copies[k]
		switch {
		case !has || cp.LastStart() != want:
			tr, t := TransitionStart, want
			if rec.NumericallyEnded() {
				tr, t = TransitionEnd, rec.Boundaries[len(rec.Boundaries)-1]
			}
			out = append(out, PendingAck{Author: x, Pubkey: k.subject, Transition: tr, Time: t, Command: CommandFollowLead(), Moderator: k.letter == RoleModerator})
		case rec.NumericallyEnded() && !cp.NumericallyEnded():
			out = append(out, PendingAck{Author: x, Pubkey: k.subject, Transition: TransitionEnd, Time: rec.Boundaries[len(rec.Boundaries)-1], Command: CommandFollowLead(),
				Moderator: k.letter == RoleModerator})
		}
	}
	return out
}

// departureOf is the signed end of a subject who left: their numeric
// self-role end, else the created_at of the deletion of their announcement.
func departureOf(parts map[string]*participant, s *snapshot, subject string, after int64) (int64, bool) {
	if p := parts[subject]; p != nil {
		if !p.departed {
			return 0, false
		}
		end := int64(-1)
		for _, rec := range p.ann.Roles {
			if rec.Subject == subject && rec.Letter != RoleModerator && rec.NumericallyEnded() {
				end = max(end, rec.Boundaries[len(rec.Boundaries)-1])
			}
		}
		return end, end >= after
	}
	if d, ok := s.deleted[subject]; ok {
		return d.Time, d.Time >= after
	}
	return 0, false
}

// dedupeAcks keeps one entry per author, subject and transition (M and m
// copies of one person produce the same guidance).
func dedupeAcks(in []PendingAck) []PendingAck {
	out := in[:0]
	for i, a := range in {
		if i > 0 && in[i-1].Author == a.Author && in[i-1].Pubkey == a.Pubkey && in[i-1].Transition == a.Transition {
			continue
		}
		out = append(out, a)
	}
	return out
}

// historyKey names one subject's role letter.
type historyKey struct {
	subject string
	letter  byte
}
