package groups

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
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
	// ID is the group looked for.
	ID string `json:"-"`
}

// SearchMoves is the migration check of a read in which some of the
// group's relays did not answer (read): LookForMoves for those relays, with
// the admins store (nil: none) cached, on the lookup relays, for me (""
// for nobody).
func SearchMoves(ctx context.Context, r pipeline.Relays, store pipeline.Store, read []RelayRead, lookup []string, id, me string) MoveSearch {
	var down []string
	for _, rr := range read {
		if rr.Status != relaypool.StatusOK {
			down = append(down, rr.URL)
		}
	}
	return LookForMoves(ctx, r, store, down, relaypool.NormalizeRelays(lookup), id, me)
}

// Advice is what the check found, in words (one line), and the commands
// that read the group where the lists point and move your membership
// there, in the order of Found.
func (ms MoveSearch) Advice() (string, []suggest.Command) {
	var words []string
	var cmds []suggest.Command
	for _, s := range ms.Found {
		var who []string
		for _, p := range s.ListedBy {
			tag := graph.Npub(p)
			if slices.Contains(s.Admins, p) {
				tag += " (admin)"
			}
			who = append(who, tag)
		}
		words = append(words, fmt.Sprintf("%s (kind 10009 of %s)", s.Relay, strings.Join(who, ", ")))
		ref := s.Relay + "'" + ms.ID
		join := suggest.Roster("group", "join", ref, "--save")
		if len(ms.Unreachable) == 1 {
			join = join.With("--from", ms.Unreachable[0])
		}
		cmds = append(cmds, suggest.Roster("group", "show", ref).Because("read the group where the lists point"),
			join.Because("move your membership there and update your kind 10009"))
	}
	switch {
	case len(ms.Found) > 0:
		return fmt.Sprintf("the group may have moved or been forked: groups lists name it on %s", strings.Join(words, "; ")), cmds
	case len(ms.Admins) == 0 && len(ms.Asked) > 0:
		return fmt.Sprintf("no kind 10009 list read from %s names the group elsewhere (the admins are not cached: only your own list was checked, if you are signed in)", strings.Join(ms.Asked, ", ")), cmds
	case len(ms.Asked) > 0:
		return fmt.Sprintf("no kind 10009 list of the group's %d cached admin(s) read from %s names it elsewhere", len(ms.Admins), strings.Join(ms.Asked, ", ")), cmds
	}
	return "no other relay to look for the group's admins' kind 10009 lists on: pass --relay with relays they use", cmds
}

// LookForMoves reads, from the lookup relays, the kind 10009 of the group's
// admins (as the cache last saw the unreachable relays sign them) and of me
// (when not ""), and reports every relay their entries for group id name
// other than the unreachable ones.
func LookForMoves(ctx context.Context, r pipeline.Relays, store pipeline.Store, unreachable, lookup []string, id, me string) MoveSearch {
	out := MoveSearch{Unreachable: append([]string{}, unreachable...), Admins: []string{}, Asked: []string{}, Found: []Sighting{}, Complete: true, ID: id}
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
