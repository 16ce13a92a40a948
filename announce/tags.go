package announce

// What repo init writes in an announcement, and when it may refresh one that
// already exists.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// announcementTags are the tags init writes, in ngit's order
// (graph.InNgitTagOrder): d, r euc, name, description, clone, web, relays,
// alt. No maintainers tag and no M/m/o: a
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

// initTagNames are the tags announcementTags writes (of `r`, only the
// earliest-unique-commit one); an existing announcement's other tags are
// carried over unchanged.
var initTagNames = []string{"d", "name", "description", "clone", "web", "relays", "alt"}

// carriedTags copies (never aliases: go-nostr's Tags.Clone returns nil) the
// tags of prev that init does not write, in their order: an `r` tag that is
// not an earliest unique commit (graph.IsEUCTag), such as a URL, is kept.
func carriedTags(prev *nostr.Event) nostr.Tags {
	var out nostr.Tags
	for _, t := range prev.Tags {
		if len(t) == 0 || slices.Contains(initTagNames, t[0]) || t[0] == "r" && graph.IsEUCTag(t) {
			continue
		}
		out = append(out, slices.Clone(t))
	}
	return out
}

// identityDifference says why prev cannot be refreshed by init, or "" when it
// can: the same earliest unique commit as graph reads it (graph.IsEUCTag),
// and no membership beyond its author (no M/m/o; a legacy maintainers tag
// naming at most the author, as ngit writes for a sole maintainer).
func identityDifference(prev *nostr.Event, author, root string) string {
	for _, t := range prev.Tags {
		if len(t) > 0 && (t[0] == "M" || t[0] == "m" || t[0] == "o") {
			return "it records maintainer or moderator roles (" + t[0] + " tags)"
		}
		if len(t) < 2 {
			continue
		}
		if t[0] == "maintainers" {
			for _, v := range t[1:] {
				if strings.ToLower(v) != author {
					return "its maintainers tag lists other people"
				}
			}
		}
	}
	a, err := graph.ParseAnnouncement(prev)
	if err != nil {
		return "it cannot be read as an announcement: " + err.Error()
	}
	if a.EUC == "" {
		return fmt.Sprintf("it names no root commit (no r <commit> euc tag), this checkout's is %s", root)
	}
	if a.EUC != root {
		return fmt.Sprintf("it names root commit %s, this checkout's is %s", a.EUC, root)
	}
	return ""
}

// editInstead is what to run when init may not refresh an announcement:
// repo edit with the metadata init was given (a metadata edit keeps the
// announcement's roles and every other tag), on the author's own
// coordinate; with no metadata given, repo edit's help.
func editInstead(req Request, naddr string) suggest.Command {
	argv := []string{"repo", "edit"}
	if req.Name != "" {
		argv = append(argv, "--name", req.Name)
	}
	if req.Description != "" {
		argv = append(argv, "--description", req.Description)
	}
	for _, w := range req.Web {
		argv = append(argv, "--web", w)
	}
	for _, c := range req.Clone {
		argv = append(argv, "--clone", c)
	}
	if len(argv) == 2 {
		return suggest.Roster("repo", "edit", "--help").Because("changes an announced repository")
	}
	return suggest.Roster(append(argv, "--repo", naddr)...).Because("changes the metadata of an announced repository, keeping its roles")
}
