package main

// What repo init writes in an announcement, and when it may refresh one that
// already exists.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// announcementTags are the tags init writes, in ngit's order: d, r euc, name,
// description, clone, web, relays, alt. No maintainers tag and no M/m/o: a
// fresh one-person repository's author is the implicit sole maintainer
// (maintainers.md "Required client invariants").
func announcementTags(id, root, name, description string, clone, web, relays []string) nostr.Tags {
	return nostr.Tags{
		{"d", id},
		{"r", root, "euc"},
		{"name", name},
		{"description", description},
		append(nostr.Tag{"clone"}, clone...),
		append(nostr.Tag{"web"}, web...),
		append(nostr.Tag{"relays"}, relays...),
		{"alt", "git repository: " + name},
	}
}

// initTagNames are the tags announcementTags writes; an existing
// announcement's other tags are carried over unchanged.
var initTagNames = []string{"d", "r", "name", "description", "clone", "web", "relays", "alt"}

// carriedTags copies (never aliases: go-nostr's Tags.Clone returns nil) the
// tags of prev that init does not write, in their order.
func carriedTags(prev *nostr.Event) nostr.Tags {
	var out nostr.Tags
	for _, t := range prev.Tags {
		if len(t) == 0 || slices.Contains(initTagNames, t[0]) {
			continue
		}
		out = append(out, slices.Clone(t))
	}
	return out
}

// identityDifference says why prev cannot be refreshed by init, or "" when it
// can: the same earliest unique commit, and no membership beyond its author
// (no M/m/o; a legacy maintainers tag naming at most the author, as ngit
// writes for a sole maintainer).
func identityDifference(prev *nostr.Event, author, root string) string {
	var roots []string
	for _, t := range prev.Tags {
		if len(t) > 0 && (t[0] == "M" || t[0] == "m" || t[0] == "o") {
			return "it records maintainer or moderator roles (" + t[0] + " tags)"
		}
		if len(t) < 2 {
			continue
		}
		switch t[0] {
		case "r":
			if len(t) >= 3 && t[2] == "euc" || len(t) == 2 {
				roots = append(roots, strings.ToLower(t[1]))
			}
		case "maintainers":
			for _, v := range t[1:] {
				if strings.ToLower(v) != author {
					return "its maintainers tag lists other people"
				}
			}
		}
	}
	if len(roots) != 1 || roots[0] != root {
		return fmt.Sprintf("it names root commit %s, this checkout's is %s", strings.Join(roots, ","), root)
	}
	return ""
}
