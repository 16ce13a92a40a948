package groups

import (
	"context"
	"slices"
	"sort"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/workspace/pipeline"
)

// Sighting is a relay that kind 10009 lists name for the group, other than
// the unreachable ones: the group may have moved there, or been forked.
type Sighting struct {
	Relay string `json:"relay"`
	// ListedBy are the pubkeys whose 10009 names the group on Relay.
	ListedBy []string `json:"listed_by"`
	// Admins are those of ListedBy the cached 39001 names as admins.
	Admins []string `json:"admins"`
}

// MoveSearch is the migration and fork check of nip-29.md "Detecting
// migrations and forks", made when the group's relays are unreachable.
type MoveSearch struct {
	// Unreachable are the group's relays that did not answer.
	Unreachable []string `json:"unreachable"`
	// Admins are the admins' pubkeys from the cached 39001 of the
	// unreachable relays (empty: this machine never read the group there).
	Admins []string `json:"admins"`
	// Asked are the relays the 10009 lists were read from; Complete, whether
	// all of them answered.
	Asked    []string   `json:"asked"`
	Complete bool       `json:"complete"`
	Found    []Sighting `json:"found"`
}

// LookForMoves reads, from the lookup relays, the kind 10009 of the group's
// admins (as the cache last saw the unreachable relays sign them) and of me
// (when not ""), and reports every relay their entries for group id name
// other than the unreachable ones.
func LookForMoves(ctx context.Context, r pipeline.Relays, store pipeline.Store, unreachable, lookup []string, id, me string) MoveSearch {
	out := MoveSearch{Unreachable: append([]string{}, unreachable...), Admins: []string{}, Asked: []string{}, Found: []Sighting{}, Complete: true}
	for _, u := range unreachable {
		if store == nil {
			break
		}
		if st, ok := Cached(store, u, id); ok {
			for _, a := range st.Admins {
				if !slices.Contains(out.Admins, a.Pubkey) {
					out.Admins = append(out.Admins, a.Pubkey)
				}
			}
		}
	}
	authors := slices.Clone(out.Admins)
	if me != "" && !slices.Contains(authors, me) {
		authors = append(authors, me)
	}
	for _, l := range lookup {
		if !slicesContainsRelay(unreachable, l) {
			out.Asked = append(out.Asked, l)
		}
	}
	if len(authors) == 0 || len(out.Asked) == 0 {
		return out
	}
	lists, complete := Lists(ctx, r, out.Asked, authors)
	out.Complete = complete
	byRelay := map[string]*Sighting{}
	for _, author := range authors {
		for _, e := range EntriesOf(lists[author]) {
			if e.ID != id || slicesContainsRelay(unreachable, e.Relay) {
				continue
			}
			key := nostr.NormalizeURL(e.Relay)
			if key == "" {
				continue
			}
			s := byRelay[key]
			if s == nil {
				s = &Sighting{Relay: key, ListedBy: []string{}, Admins: []string{}}
				byRelay[key] = s
			}
			if !slices.Contains(s.ListedBy, author) {
				s.ListedBy = append(s.ListedBy, author)
				if slices.Contains(out.Admins, author) {
					s.Admins = append(s.Admins, author)
				}
			}
		}
	}
	for _, s := range byRelay {
		out.Found = append(out.Found, *s)
	}
	// Most admins first: a move the admins agree on outranks a lone list.
	sort.Slice(out.Found, func(i, j int) bool {
		a, b := out.Found[i], out.Found[j]
		if len(a.Admins) != len(b.Admins) {
			return len(a.Admins) > len(b.Admins)
		}
		return a.Relay < b.Relay
	})
	return out
}

func slicesContainsRelay(list []string, relay string) bool {
	for _, l := range list {
		if sameRelay(l, relay) {
			return true
		}
	}
	return false
}
