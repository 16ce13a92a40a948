package relaypool

import (
	"slices"
	"sort"
	"strconv"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// OlderVersion is one relay that served an older version of an address
// than Newer: a relay that answers a repeated filter from a cache, or lags
// behind, serves the version Newer replaced.
type OlderVersion struct {
	Relay string
	// Older is the newest of the older versions the relay served.
	Older *nostr.Event
	Newer *nostr.Event
}

// OlderServed lists, for each replaceable or addressable event of newest,
// the relays whose answers in res included an older version of its address
// (NIP-01 order, graph.Newer). A relay that keeps only the latest version
// of an address never returns an older one, whatever else it returned, so
// this holds both for a relay that serves only the previous version and
// for one that serves the new version by id and the old one to a cached
// filter. Sorted by relay, then by the newer event's id.
func OlderServed(res *FetchResult, newest []*nostr.Event) []OlderVersion {
	if res == nil {
		return nil
	}
	var out []OlderVersion
	for _, n := range newest {
		f, ok := AddressFilter(n)
		if !ok {
			continue
		}
		older := map[string]*nostr.Event{}
		for _, e := range res.Events {
			if e.ID == n.ID || !f.Matches(e) || !graph.Newer(n, e) {
				continue
			}
			for _, u := range res.Sources[e.ID] {
				if cur := older[u]; cur == nil || graph.Newer(e, cur) {
					older[u] = e
				}
			}
		}
		for u, e := range older {
			out = append(out, OlderVersion{Relay: u, Older: e, Newer: n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Relay != out[j].Relay {
			return out[i].Relay < out[j].Relay
		}
		return out[i].Newer.ID < out[j].Newer.ID
	})
	return slices.Clip(out)
}

// LatestVersions is the latest event (NIP-01 order) of each replaceable or
// addressable address among events, in the order first seen.
func LatestVersions(events []*nostr.Event) []*nostr.Event {
	idx := map[string]int{}
	var out []*nostr.Event
	for _, e := range events {
		if _, ok := AddressFilter(e); !ok {
			continue
		}
		d := ""
		if nostr.IsAddressableKind(e.Kind) {
			d = e.Tags.GetD()
		}
		key := strconv.Itoa(e.Kind) + ":" + e.PubKey + ":" + d
		if i, seen := idx[key]; seen {
			if graph.Newer(e, out[i]) {
				out[i] = e
			}
			continue
		}
		idx[key] = len(out)
		out = append(out, e)
	}
	return out
}
