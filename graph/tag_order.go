package graph

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
)

// ngitTagRank is where ngit (the reference client) puts each kind 30617 tag
// it writes: d, r <commit> euc, name, description, clone, web, relays,
// maintainers, alt, t, u, blossoms; anything else (M/m/o included, which
// ngit copies through as unknown tags) comes after, in its own order.
func ngitTagRank(t nostr.Tag) int {
	if len(t) == 0 {
		return 12
	}
	switch t[0] {
	case "d":
		return 0
	case "r":
		if IsEUCTag(t) {
			return 1
		}
	case "name":
		return 2
	case "description":
		return 3
	case "clone":
		return 4
	case "web":
		return 5
	case "relays":
		return 6
	case "maintainers":
		return 7
	case "alt":
		return 8
	case "t":
		return 9
	case "u":
		return 10
	case "blossoms":
		return 11
	}
	return 12
}

// InNgitTagOrder returns tags (the same tag slices, not copies) in the order
// ngit writes an announcement's tags, so an announcement roster writes from
// scratch reads the same to an ngit user diffing events. The sort is stable:
// tags of one rank (hashtags, role records, unknown tags) keep their order.
func InNgitTagOrder(tags nostr.Tags) nostr.Tags {
	out := slices.Clone(tags)
	slices.SortStableFunc(out, func(a, b nostr.Tag) int { return ngitTagRank(a) - ngitTagRank(b) })
	return out
}

// InsertInNgitOrder returns tags with t inserted where ngit's order puts it:
// before the first tag ngit writes after t's kind (or at the end), so every
// other tag keeps its place and bytes.
func InsertInNgitOrder(tags nostr.Tags, t nostr.Tag) nostr.Tags {
	r := ngitTagRank(t)
	for i, x := range tags {
		if ngitTagRank(x) > r {
			return slices.Insert(slices.Clone(tags), i, t)
		}
	}
	return append(slices.Clone(tags), t)
}
