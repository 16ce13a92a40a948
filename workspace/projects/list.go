// Listing projects: an owner's (their kind 30621 identities) and those
// whose home channel the viewer administers (the relay-signed 39001).

package projects

import (
	"context"
	"sort"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// MaxListedStates bounds the Project States one relay is asked for when
// looking for projects by home channel (NIP-01 has no filter on the
// multi-letter buzz-channel tag).
const MaxListedStates = 500

// Why a project is listed.
const (
	ListedOwned     = "owner"              // the owner asked for published its identity
	ListedHomeAdmin = "home-channel-admin" // the viewer is an owner or admin of its home channel
)

// Listed is one project one relay holds.
type Listed struct {
	Coordinate Coordinate
	Relay      string
	Why        []string
	// State is the relay's verified Project State (nil: the relay holds the
	// identity but no valid state for it).
	State *State
	// IdentityEvent is the owner's kind 30621 the relay served (owner listings).
	IdentityEvent string
	identityAt    nostr.Timestamp
}

// ListResult is every relay's projects.
type ListResult struct {
	Projects []Listed
	Complete bool
	Relays   []RelayRead // per relay: status and self
	// Truncated names the relays that returned MaxListedStates Project
	// States: projects by home channel beyond them are not listed.
	Truncated []string
}

// List asks every relay, in one request each, for owner's kind 30621
// identities (when owner is set), the relay-signed 39001 admin lists naming
// admin (when admin is set) and, in a second request, the Project States of
// the owner's coordinates and up to MaxListedStates others. A project is
// listed for the owner when the relay serves its verified identity, and
// for admin when the relay's own verified Project State names as home
// channel a group whose relay-signed 39001 gives admin the owner or admin
// role (an archived or deleted group grants nothing: relate says so).
func List(ctx context.Context, r pipeline.Relays, urls []string, owner, admin string) ListResult {
	urls = relaypool.NormalizeRelays(urls)
	infos := pipeline.RelaySelves(ctx, r, urls)
	var first []nostr.Filter
	if owner != "" {
		first = append(first, nostr.Filter{Kinds: []int{KindIdentity}, Authors: []string{owner}})
	}
	if admin != "" {
		first = append(first, nostr.Filter{Kinds: []int{groups.KindAdmins}, Tags: nostr.TagMap{"p": {admin}}})
	}
	res1 := r.Fetch(ctx, urls, first...)
	out := ListResult{Complete: res1.Complete}
	owned := map[string]map[string]Listed{} // url -> coordinate -> listing
	homes := map[string]map[string]bool{}   // url -> group ids admin administers
	var addresses []string
	for i, rep := range res1.Relays {
		owned[rep.URL], homes[rep.URL] = map[string]Listed{}, map[string]bool{}
		out.Relays = append(out.Relays, RelayRead{URL: rep.URL, Status: rep.Status, Reason: rep.Reason, Self: infos[i].Self, Projection: ProjectionNone})
		for _, e := range pipeline.EventsFrom(res1, rep.URL) {
			switch e.Kind {
			case KindIdentity:
				id, err := ParseIdentity(e)
				if err != nil || id.Coordinate.Owner != owner {
					continue
				}
				k := id.Coordinate.String()
				if cur, ok := owned[rep.URL][k]; !ok || id.CreatedAt > cur.identityAt {
					owned[rep.URL][k] = Listed{Coordinate: id.Coordinate, Relay: rep.URL, Why: []string{ListedOwned}, IdentityEvent: e.ID, identityAt: id.CreatedAt}
					addresses = append(addresses, id.Coordinate.Address())
				}
			case groups.KindAdmins:
				gid := e.Tags.GetD()
				st := groups.Build(gid, infos[i].Self, []*nostr.Event{e})
				for _, role := range st.RolesOf(admin) {
					if role == RoleOwner || role == RoleAdmin {
						homes[rep.URL][gid] = true
					}
				}
			}
		}
	}
	var second []nostr.Filter
	if len(addresses) > 0 {
		second = append(second, nostr.Filter{Kinds: []int{KindState}, Tags: nostr.TagMap{"d": addresses}})
	}
	if admin != "" {
		second = append(second, nostr.Filter{Kinds: []int{KindState}, Limit: MaxListedStates})
	}
	if len(second) == 0 {
		return out
	}
	res2 := r.Fetch(ctx, urls, second...)
	out.Complete = out.Complete && res2.Complete
	for i, rep := range res2.Relays {
		self := infos[i].Self
		listed := owned[rep.URL]
		evs := pipeline.EventsFrom(res2, rep.URL)
		if admin != "" && len(evs) >= MaxListedStates {
			out.Truncated = append(out.Truncated, rep.URL)
		}
		for _, e := range evs {
			c, ok := stateCoordinate(e)
			if !ok {
				continue
			}
			st, found, err := FromRelay([]*nostr.Event{e}, c, self)
			if err != nil || !found {
				continue
			}
			k := c.String()
			l, mine := listed[k]
			isAdmin := !st.Deleted && st.Document.HomeChannel != "" && homes[rep.URL][st.Document.HomeChannel]
			if !mine && !isAdmin {
				continue
			}
			if !mine {
				l = Listed{Coordinate: c, Relay: rep.URL}
			}
			if l.State == nil || st.Revision > l.State.Revision {
				s := st
				l.State = &s
			}
			if isAdmin && !contains(l.Why, ListedHomeAdmin) {
				l.Why = append(l.Why, ListedHomeAdmin)
			}
			listed[k] = l
		}
	}
	for _, url := range urls {
		for _, l := range owned[url] {
			out.Projects = append(out.Projects, l)
		}
	}
	sort.Slice(out.Projects, func(i, j int) bool {
		a, b := out.Projects[i], out.Projects[j]
		if a.Relay != b.Relay {
			return a.Relay < b.Relay
		}
		return a.Coordinate.String() < b.Coordinate.String()
	})
	return out
}

// stateCoordinate reads the `a` tag of a Project State candidate.
func stateCoordinate(e *nostr.Event) (Coordinate, bool) {
	for _, t := range e.Tags {
		if len(t) >= 2 && t[0] == "a" {
			c, err := ParseCoordinate(t[1])
			return c, err == nil
		}
	}
	return Coordinate{}, false
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
