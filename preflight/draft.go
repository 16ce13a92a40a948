package preflight

import (
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// RoleChange describes one role record the replacement changes, for the preview.
type RoleChange struct {
	Letter  string    `json:"letter"`
	Subject string    `json:"subject"`
	Action  string    `json:"action"` // start, end, defer, reactivate, materialize, set
	Before  nostr.Tag `json:"before"` // nil when the record is new
	After   nostr.Tag `json:"after"`
}

// draft is the author's announcement being edited in memory. Every edit goes
// through it so unrelated tags keep their bytes and order.
type draft struct {
	author  string
	at      int64
	tags    nostr.Tags
	changes []RoleChange
}

func newDraft(author string, at int64, tags nostr.Tags) *draft {
	return &draft{author: author, at: at, tags: copyTags(tags)}
}

// copyTags deep-copies tags (go-nostr's Tags.Clone returns nil;
// docs/architecture.md pitfalls).
func copyTags(tags nostr.Tags) nostr.Tags {
	out := make(nostr.Tags, 0, len(tags))
	for _, t := range tags {
		out = append(out, slices.Clone(t))
	}
	return out
}

// errDuplicateRecord: a pubkey may have one record per role letter; with two we
// cannot know which one the author meant, so the edit fails closed.
type errDuplicateRecord struct{ letter, subject string }

func (e errDuplicateRecord) Error() string {
	return fmt.Sprintf("your announcement has more than one %q record for %s; repair it by hand before this change", e.letter, e.subject)
}

// find returns the author's single parseable record for (letter, subject).
func (d *draft) find(letter, subject string) (record, bool, error) {
	var found []record
	for _, r := range records(d.tags) {
		if r.valid && r.letter == letter && r.subject == subject {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 0:
		return record{}, false, nil
	case 1:
		return found[0], true, nil
	}
	return record{}, false, errDuplicateRecord{letter, subject}
}

// insertIndex is where a new role record goes: after the last role tag, else
// just before the `maintainers` tag, else at the end.
func (d *draft) insertIndex() int {
	last := -1
	for i, t := range d.tags {
		if len(t) > 0 && graph.IsRoleLetter(t[0]) {
			last = i
		}
	}
	if last >= 0 {
		return last + 1
	}
	for i, t := range d.tags {
		if len(t) > 0 && t[0] == "maintainers" {
			return i
		}
	}
	return len(d.tags)
}

func (d *draft) put(action string, old record, existed bool, next record) {
	var before nostr.Tag
	if existed {
		before = slices.Clone(d.tags[old.index])
		d.tags[old.index] = next.tag()
	} else {
		i := d.insertIndex()
		d.tags = slices.Insert(d.tags, i, next.tag())
	}
	d.changes = append(d.changes, RoleChange{Letter: next.letter, Subject: next.subject, Action: action, Before: before, After: next.tag()})
}

// start makes (letter, subject) active from d.at: a new record, or a new start
// appended to an ended one. An already active record is left alone.
func (d *draft) start(letter, subject string) error {
	r, ok, err := d.find(letter, subject)
	if err != nil {
		return err
	}
	switch {
	case !ok:
		d.put("start", r, false, record{letter: letter, subject: subject, starts: []int64{d.at}, valid: true})
	case r.active():
		return nil
	case r.deferred:
		return fmt.Errorf("your %q record for %s is a historical-only copy ending in defer with no recorded end (%s); starting a new interval needs its numeric end first, which roster will not choose for you: record it in a signer-reviewed edit (roster repo follow-lead copies it once the resolved history has it), then rerun", letter, npub(subject), tagJSON(r.raw))
	default:
		if last := r.starts[len(r.starts)-1]; last > d.at {
			return fmt.Errorf("your %q record for %s ends at %s, after the replacement time %s; check the system clock", letter, subject, graph.HumanTime(last), graph.HumanTime(d.at))
		}
		n := r
		n.starts = append(slices.Clone(r.starts), d.at)
		d.put("start", r, true, n)
	}
	return nil
}

// materialize writes an untimed active record for a relationship that already
// existed implicitly (a sole author's self-role, a legacy listing). It never
// invents a timestamp (maintainers.md "Legacy migration").
func (d *draft) materialize(letter, subject string) error {
	r, ok, err := d.find(letter, subject)
	if err != nil || ok {
		return err
	}
	d.put("materialize", r, false, record{letter: letter, subject: subject, valid: true})
	return nil
}

// end closes an active record at d.at. An untimed record closes as [0, at]:
// its materialized history (maintainers.md "Current role tags").
func (d *draft) end(letter, subject string) error {
	return d.endAt(letter, subject, d.at)
}

func (d *draft) endAt(letter, subject string, at int64) error {
	r, n, ok, err := d.closable(letter, subject)
	if !ok {
		return err
	}
	if last := n.starts[len(n.starts)-1]; at < last {
		return fmt.Errorf("cannot end your %q record for %s at %s: its interval starts at %s", letter, subject, graph.HumanTime(at), graph.HumanTime(last))
	}
	n.starts = append(n.starts, at)
	d.put("end", r, true, n)
	return nil
}

// closable finds the author's active record for (letter, subject) and a
// copy of it to close (with a numeric end or defer). An untimed record's
// copy starts at 0, its materialized history. ok is false, with a nil
// error, when no such active record exists.
func (d *draft) closable(letter, subject string) (cur, next record, ok bool, err error) {
	cur, found, err := d.find(letter, subject)
	if err != nil || !found || !cur.active() {
		return cur, record{}, false, err
	}
	next = cur
	next.starts = slices.Clone(cur.starts)
	if len(next.starts) == 0 {
		next.starts = []int64{0}
	}
	return cur, next, true, nil
}

// deferRecord turns an active third-party record into a historical-only copy.
func (d *draft) deferRecord(letter, subject string) error {
	if subject == d.author {
		return fmt.Errorf("a self-role cannot end in defer")
	}
	r, n, ok, err := d.closable(letter, subject)
	if !ok {
		return err
	}
	n.deferred = true
	d.put("defer", r, true, n)
	return nil
}

// reactivate turns a historical-only copy back into the author's own active
// assignment of the same interval (a prepared lead absorbing the roster).
func (d *draft) reactivate(letter, subject string) (bool, error) {
	r, ok, err := d.find(letter, subject)
	if err != nil || !ok || !r.deferred || r.subject == d.author {
		return false, err
	}
	n := r
	n.deferred = false
	d.put("reactivate", r, true, n)
	return true, nil
}

// set replaces the boundaries of (letter, subject), creating the record if needed.
func (d *draft) set(letter, subject string, starts []int64, deferred bool) error {
	r, ok, err := d.find(letter, subject)
	if err != nil {
		return err
	}
	n := record{letter: letter, subject: subject, starts: slices.Clone(starts), deferred: deferred, valid: true}
	if ok && slices.Equal(r.raw, n.tag()) {
		return nil
	}
	d.put("set", r, ok, n)
	return nil
}
