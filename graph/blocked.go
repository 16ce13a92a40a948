package graph

// Author-blocking self-records.
//
// Spec, "Replicated role history": a self-role ending in defer is invalid;
// "Clients discard that invalid interval before selecting the author's
// current role. A valid active self-role whose signed start is later than
// the malformed interval's last valid start supersedes it ... If signed
// boundaries do not order the records, the client cannot assume that one
// supersedes the other." And "Reciprocal graph resolution": "An author whose
// relevant self-records are exclusively unparseable is blocked exactly like
// an author with an unsuperseded invalid self-defer".
//
// The read side (confirmation, seeding, lead walk) and the write side
// (preflight's gate on the author's own mutations) must agree on this rule,
// so it lives here once.

// SelfBlocked reports whether the announcement's author is blocked by their
// own records: an unsuperseded self-defer, or self-records (any letter) that
// are exclusively unparseable. A blocked author is never confirmed, cannot
// seed or confirm others and gets no authority, but has not departed.
func (a *Announcement) SelfBlocked() bool {
	return len(selfBlocking(a)) > 0
}

// BlockingSelfRecords returns the records that block the author, in tag
// order: every unsuperseded self-defer; or, when the author has neither a
// valid self-record nor a self-defer, every unparseable record naming the
// author. Nil when the author is not blocked.
func (a *Announcement) BlockingSelfRecords() []RoleRecord {
	blocking := selfBlocking(a)
	if len(blocking) == 0 {
		return nil
	}
	out := make([]RoleRecord, len(blocking))
	for i, j := range blocking {
		out[i] = a.Roles[j]
	}
	return out
}

// SupersededSelfDefer reports whether a.Roles[i] is a self-defer that a
// later valid active self-role supersedes (it stays a health warning but
// blocks nothing).
func (a *Announcement) SupersededSelfDefer(i int) bool {
	if i < 0 || i >= len(a.Roles) || a.Roles[i].Problem != ProblemSelfDefer {
		return false
	}
	_, successor := latestActiveSelfStart(a)
	return successor > a.Roles[i].LastStart()
}

// selfBlocking returns the indexes in a.Roles of the blocking records. It
// allocates only when the author has an unsuperseded self-defer or
// exclusively unparseable self-records.
func selfBlocking(a *Announcement) (blocking []int) {
	validSelf, successor := latestActiveSelfStart(a)
	selfDefer := false
	for i, r := range a.Roles {
		if r.Problem != ProblemSelfDefer {
			continue
		}
		selfDefer = true
		if successor <= r.LastStart() {
			blocking = append(blocking, i)
		}
	}
	if validSelf || selfDefer {
		return blocking
	}
	for i, r := range a.Roles {
		if !r.Valid && r.Subject == a.Author {
			blocking = append(blocking, i)
		}
	}
	return blocking
}

// latestActiveSelfStart reports whether the author has any valid
// self-record, and the latest signed start of a valid active self-role (-1
// when none is signed: an untimed successor does not order against a
// self-defer).
func latestActiveSelfStart(a *Announcement) (validSelf bool, successor int64) {
	successor = -1
	for _, r := range a.Roles {
		if !r.Valid || r.Subject != a.Author {
			continue
		}
		validSelf = true
		if r.Active() && !r.Untimed() && r.LastStart() > successor {
			successor = r.LastStart()
		}
	}
	return validSelf, successor
}
