package preflight

import (
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// TagEdit is one tag of the author's announcement that a replacement adds
// or removes beyond what its role changes and field changes say (the
// maintainers projection recomputed, a tag dropped): the preview names
// every difference, so nothing is published unsaid.
type TagEdit struct {
	// Action is "add" or "remove".
	Action string    `json:"action"`
	Tag    nostr.Tag `json:"tag"`
}

// sameTagSet reports whether two tag lists hold the same tags, each as
// often, in any order: a replacement whose tags equal the current
// announcement's as a set changes nothing a reader resolves, so it is not
// published.
func sameTagSet(a, b nostr.Tags) bool {
	if len(a) != len(b) {
		return false
	}
	return len(tagDiff(a, b)) == 0 && len(tagDiff(b, a)) == 0
}

// tagDiff is each tag of a that b does not hold (counted: a tag twice in a
// and once in b appears once).
func tagDiff(a, b nostr.Tags) nostr.Tags {
	left := map[string]int{}
	for _, t := range b {
		left[tagKey(t)]++
	}
	var out nostr.Tags
	for _, t := range a {
		k := tagKey(t)
		if left[k] > 0 {
			left[k]--
			continue
		}
		out = append(out, t)
	}
	return out
}

func tagKey(t nostr.Tag) string { return strings.Join(t, "\x00") }

// otherTagEdits are the differences between the current announcement and
// the replacement that neither a role change nor a field change names.
func otherTagEdits(current, next nostr.Tags, changes []RoleChange, fields []FieldChange) []TagEdit {
	said := map[string]bool{}
	for _, c := range changes {
		if c.Before != nil {
			said[tagKey(c.Before)] = true
		}
		said[tagKey(c.After)] = true
	}
	for _, f := range fields {
		for _, t := range f.Before {
			said[tagKey(t)] = true
		}
		for _, t := range f.After {
			said[tagKey(t)] = true
		}
	}
	var out []TagEdit
	for _, t := range tagDiff(current, next) {
		if !said[tagKey(t)] {
			out = append(out, TagEdit{Action: "remove", Tag: slices.Clone(t)})
		}
	}
	for _, t := range tagDiff(next, current) {
		if !said[tagKey(t)] {
			out = append(out, TagEdit{Action: "add", Tag: slices.Clone(t)})
		}
	}
	return out
}
