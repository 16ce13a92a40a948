package preflight

import (
	"strconv"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// record is one M, m or o role tag of the announcement being edited, as
// preflight edits it. Parsing is graph's (see parseRecord); this type only
// adds the tag's position and the edit operations.
type record struct {
	index    int
	letter   string
	subject  string
	starts   []int64 // numeric boundaries in order (start, end, start, ...)
	deferred bool    // the final boundary is the literal "defer"
	valid    bool    // graph could parse it (a self-defer parses but is not valid authority)
	raw      nostr.Tag
}

// active reports whether the record currently asserts its relationship: it is
// valid, not deferred, and its final boundary is a start (or it has none).
func (r record) active() bool {
	return r.valid && !r.deferred && (len(r.starts) == 0 || len(r.starts)%2 == 1)
}

// tag renders the record's boundaries back into a tag.
func (r record) tag() nostr.Tag {
	t := nostr.Tag{r.letter, r.subject}
	for _, b := range r.starts {
		t = append(t, strconv.FormatInt(b, 10))
	}
	if r.deferred {
		t = append(t, "defer")
	}
	return t
}

// records parses every role tag of tags, in order. Unparseable role tags are
// returned with valid=false so callers can preserve them byte for byte.
func records(tags nostr.Tags) []record {
	var out []record
	for i, t := range tags {
		if len(t) == 0 || !graph.IsRoleLetter(t[0]) {
			continue
		}
		out = append(out, parseRecord(i, t))
	}
	return out
}

// hasIndexedRoles reports whether the announcement carries any M, m or o tag;
// then indexed roles are authoritative and `maintainers` is only a projection.
func hasIndexedRoles(tags nostr.Tags) bool {
	for _, t := range tags {
		if len(t) > 0 && graph.IsRoleLetter(t[0]) {
			return true
		}
	}
	return false
}
