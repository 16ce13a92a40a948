package graph

import (
	"strconv"

	"github.com/nbd-wtf/go-nostr"
)

// Role letters of NIP-34 indexed role records.
const (
	RoleLead      byte = 'M' // forwarding pointer toward the author's lead; self-M declares lead
	RoleMaint     byte = 'm' // the author regards the subject as a co-maintainer
	RoleModerator byte = 'o' // assigns or acknowledges a moderator
)

// DeferSentinel is the literal that ends a non-self record as historical-only.
const DeferSentinel = "defer"

// Problems that make a role record carry no semantics. Stable strings: they
// appear in health findings.
const (
	ProblemNone           = ""
	ProblemNotRole        = "not-a-role-record"
	ProblemBadSubject     = "missing-or-non-hex-subject"
	ProblemBadBoundary    = "non-numeric-boundary"
	ProblemDeferMisplaced = "defer-not-final-end"
	ProblemSelfDefer      = "self-defer"
)

// RoleRecord is one parsed ["M"|"m"|"o", subject, boundary...] tag.
//
// Boundaries alternate start, end, start, ... as Unix seconds. Defer means
// the final end position held the literal "defer" (it is not in
// Boundaries). A record that fails to parse keeps Raw byte for byte so the
// write side can preserve it, and has Valid=false with Problem set.
type RoleRecord struct {
	Letter     byte
	Subject    string
	Boundaries []int64
	Defer      bool
	Valid      bool
	Problem    string
	Raw        nostr.Tag
	Index      int // position in the event's tags; -1 when parsed standalone
}

// IsRoleLetter reports whether s names an indexed role tag.
func IsRoleLetter(s string) bool { return s == "M" || s == "m" || s == "o" }

// ParseRoleRecord parses a role tag without knowing its author, so a
// self-defer is still syntactically valid here; ParseAnnouncement marks it
// invalid once the author is known.
func ParseRoleRecord(tag nostr.Tag) RoleRecord {
	r := RoleRecord{Raw: tag, Index: -1}
	if len(tag) == 0 || !IsRoleLetter(tag[0]) {
		r.Problem = ProblemNotRole
		return r
	}
	r.Letter = tag[0][0]
	if len(tag) < 2 || !isLowerHex64(tag[1]) {
		if len(tag) >= 2 {
			r.Subject = tag[1]
		}
		r.Problem = ProblemBadSubject
		return r
	}
	r.Subject = tag[1]
	rest := tag[2:]
	bounds := make([]int64, 0, len(rest))
	for i, b := range rest {
		if b == DeferSentinel {
			// defer is only meaningful as the final boundary, in an end
			// position (odd index among boundaries).
			if i != len(rest)-1 || i%2 != 1 {
				r.Problem = ProblemDeferMisplaced
				return r
			}
			r.Defer = true
			break
		}
		n, ok := parseBoundary(b)
		if !ok {
			r.Problem = ProblemBadBoundary
			return r
		}
		bounds = append(bounds, n)
	}
	r.Boundaries = bounds
	r.Valid = true
	return r
}

// parseBoundary accepts plain decimal digits that fit in int64.
func parseBoundary(s string) (int64, bool) {
	if s == "" || len(s) > 19 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// Active reports whether a valid record is a current assignment: its final
// boundary is a start (or it has none) and it does not end in defer.
func (r RoleRecord) Active() bool {
	n := len(r.Boundaries)
	return r.Valid && !r.Defer && (n == 0 || n%2 == 1)
}

// Untimed reports an active record with no boundaries: start unknown.
func (r RoleRecord) Untimed() bool { return r.Valid && len(r.Boundaries) == 0 && !r.Defer }

// LastStart is the start of the record's final interval (0 when untimed
// or when the record has no start at all).
func (r RoleRecord) LastStart() int64 {
	n := len(r.Boundaries)
	switch {
	case n == 0:
		return 0
	case n%2 == 1:
		return r.Boundaries[n-1]
	default:
		return r.Boundaries[n-2]
	}
}

// NumericallyEnded reports a valid record whose final boundary is a signed end.
func (r RoleRecord) NumericallyEnded() bool {
	return r.Valid && !r.Defer && len(r.Boundaries) > 0 && len(r.Boundaries)%2 == 0
}

// Intervals materializes the record's history. An untimed active record
// covers [0, open) with an unknown start; a defer end is kept as such.
func (r RoleRecord) Intervals() []Interval { return r.appendIntervals(nil) }

// appendIntervals appends the record's intervals to dst (so the history
// builder can carve them out of one allocation).
func (r RoleRecord) appendIntervals(dst []Interval) []Interval {
	out := dst
	if !r.Valid {
		return out
	}
	if len(r.Boundaries) == 0 {
		if r.Defer {
			return out
		}
		return append(out, Interval{Start: 0, StartUnknown: true, End: EndOpen})
	}
	for i := 0; i < len(r.Boundaries); i += 2 {
		// A 0 start is how a closed untimed record is written ([0, T]); the
		// spec keeps labelling it unknown rather than as the epoch.
		iv := Interval{Start: r.Boundaries[i], StartUnknown: r.Boundaries[i] == 0, End: EndOpen}
		switch {
		case i+1 < len(r.Boundaries):
			iv.End = EndSigned
			iv.EndTime = r.Boundaries[i+1]
		case r.Defer:
			iv.End = EndDeferred
		}
		out = append(out, iv)
	}
	return out
}

// ActiveAt reports whether the record's own signed intervals cover t.
// Deferred intervals never authorize, matching the protocol's rule that a
// defer copy carries no current assignment.
func (r RoleRecord) ActiveAt(t int64) bool {
	for _, iv := range r.Intervals() {
		if iv.covers(t) {
			return true
		}
	}
	return false
}

// Interval end kinds.
const (
	EndOpen      = "open"      // still active
	EndSigned    = "signed"    // numeric end signed by the record's author
	EndDeferred  = "deferred"  // historical-only copy; end not asserted
	EndDeletion  = "deletion"  // end taken from a kind 5 deletion's created_at
	EndEstimated = "estimated" // observation estimate; label it as such
)

// Interval is one materialized role interval.
type Interval struct {
	Start        int64  `json:"start"`
	StartUnknown bool   `json:"start_unknown,omitempty"`
	End          string `json:"end"`
	EndTime      int64  `json:"end_time,omitempty"`
}

func (iv Interval) covers(t int64) bool {
	if t < iv.Start {
		return false
	}
	switch iv.End {
	case EndOpen:
		return true
	case EndSigned, EndDeletion, EndEstimated:
		return t < iv.EndTime
	}
	return false
}

// lowerHex marks the bytes of lowercase hexadecimal.
var lowerHex = func() (t [256]bool) {
	for _, c := range "0123456789abcdef" {
		t[c] = true
	}
	return t
}()

// isLowerHex64 accepts a pubkey or event id as NIP-01 writes it.
func isLowerHex64(s string) bool { return isLowerHexLen(s, 64) }

// isLowerHexLen reports whether s is exactly n lowercase hex digits.
func isLowerHexLen(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < n; i++ {
		if !lowerHex[s[i]] {
			return false
		}
	}
	return true
}

// copyTag copies a tag; go-nostr's Tags.Clone returns nil.
func copyTag(t nostr.Tag) nostr.Tag {
	if t == nil {
		return nil
	}
	out := make(nostr.Tag, len(t))
	copy(out, t)
	return out
}
