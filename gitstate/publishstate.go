package gitstate

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// NostrRemote is the remote of this checkout that names coordinate coord
// with a nostr:// URL: prefer is tried first (the remote the selection came
// from), then origin, then the other remotes by name. "" when none does.
func (c *Checkout) NostrRemote(coord graph.Coordinate, prefer string) (string, error) {
	remotes, err := c.Remotes()
	if err != nil {
		return "", err
	}
	names := make([]string, 0, len(remotes))
	for n := range remotes {
		names = append(names, n)
	}
	sort.Strings(names)
	order := []string{prefer, "origin"}
	order = append(order, names...)
	for _, n := range order {
		r, ok := remotes[n]
		if !ok {
			continue
		}
		for _, u := range r.URLs {
			ref, err := ParseNostrURL(u)
			if err == nil && ref.Coordinate.Pubkey == coord.Pubkey && ref.Coordinate.Identifier == coord.Identifier {
				return n, nil
			}
		}
	}
	return "", nil
}

// TrackingBranches are remote's remote-tracking branches in kind 30618
// shape: refs/remotes/<remote>/<branch> reported as refs/heads/<branch>,
// symbolic ones (refs/remotes/<remote>/HEAD) left out. Empty when remote
// is "" or has none.
func (c *Checkout) TrackingBranches(remote string) (map[string]string, error) {
	out := map[string]string{}
	if remote == "" {
		return out, nil
	}
	prefix := "refs/remotes/" + remote + "/"
	if c.repo == nil {
		raw, err := runGit(c.dir, c.needGit(), "for-each-ref", "--format=%(refname)%00%(objectname)%00%(symref)", strings.TrimSuffix(prefix, "/"))
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", prefix, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			f := strings.Split(line, "\x00")
			if len(f) != 3 || f[2] != "" || !strings.HasPrefix(f[0], prefix) {
				continue
			}
			out["refs/heads/"+strings.TrimPrefix(f[0], prefix)] = f[1]
		}
		return out, nil
	}
	iter, err := c.repo.References()
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", prefix, err)
	}
	defer iter.Close()
	err = iter.ForEach(func(r *plumbing.Reference) error {
		name := r.Name().String()
		if r.Type() == plumbing.HashReference && strings.HasPrefix(name, prefix) && !strings.HasSuffix(name, "/HEAD") {
			out["refs/heads/"+strings.TrimPrefix(name, prefix)] = r.Hash().String()
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", prefix, err)
	}
	return out, nil
}

// StateEvent is the unsigned kind 30618 event for identifier in ngit's
// shape: `d`, then one [ref, oid] tag per ref (sorted by name; an
// annotated tag as its tag object and its peeled "^{}" entry), then `HEAD`
// as "ref: <head>" when head is set. Entries that are not refs/heads/ or refs/tags/ names are left out.
func StateEvent(identifier, head string, refs map[string]string, createdAt int64) *nostr.Event {
	tags := nostr.Tags{{"d", identifier}}
	names := make([]string, 0, len(refs))
	for k := range refs {
		if strings.HasPrefix(k, "refs/heads/") || strings.HasPrefix(k, "refs/tags/") {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		tags = append(tags, nostr.Tag{k, refs[k]})
	}
	if head != "" {
		tags = append(tags, nostr.Tag{"HEAD", "ref: " + head})
	}
	return &nostr.Event{Kind: graph.KindState, CreatedAt: nostr.Timestamp(createdAt), Tags: tags, Content: ""}
}

// ComponentCloneServers are the Git servers the confirmed component of r
// advertises: the clone URLs of the selected maintainer's announcement,
// then of the lead's, then of every other confirmed maintainer's by
// pubkey, unioned in that order (CloneServers).
func ComponentCloneServers(r *graph.Resolution) []string {
	if r == nil {
		return nil
	}
	order := []string{r.SelectedMaintainer, r.Lead}
	order = append(order, r.Component...)
	seen := map[string]bool{}
	var anns []*graph.Announcement
	for _, pk := range order {
		if pk == "" || seen[pk] || !r.Confirmed(pk) {
			continue
		}
		seen[pk] = true
		anns = append(anns, r.Announcements[pk])
	}
	return CloneServers(anns)
}

// ComponentServers are ComponentCloneServers marked with whether author's
// own announcement in r advertises each (Server.Own): what
// CheckAvailability asks on author's behalf.
func ComponentServers(r *graph.Resolution, author string) []Server {
	urls := ComponentCloneServers(r)
	var own []string
	if r != nil && r.Confirmed(author) {
		if a := r.Announcements[author]; a != nil {
			own = CloneServers([]*graph.Announcement{a})
		}
	}
	out := make([]Server, 0, len(urls))
	for _, u := range urls {
		out = append(out, Server{URL: u, Own: slices.Contains(own, u)})
	}
	return out
}
