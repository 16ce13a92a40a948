package discovery

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/relayurl"
)

// KindRelayList is NIP-65's relay list metadata: one `r` tag per relay,
// with an optional "read" or "write" marker.
const KindRelayList = 10002

// MaxRelayURLBytes bounds one relay URL taken from an event: longer values
// are not relay URLs anyone dials, and a write would carry them in every
// message it prints.
const MaxRelayURLBytes = 256

// RelayURL checks a relay URL taken from an event (an announcement's
// `relays` tag, a NIP-65 `r` tag) and returns it normalized. Such URLs are
// untrusted: it must name the ws:// or wss:// scheme explicitly (no
// guessing, no http:// rewritten into ws://), a host, at most a port and a
// path; no user information, query or fragment, no space or control
// character, at most MaxRelayURLBytes.
func RelayURL(raw string) (string, error) {
	if len(raw) > MaxRelayURLBytes {
		return "", fmt.Errorf("longer than %d bytes", MaxRelayURLBytes)
	}
	return relayurl.Parse(raw, relayurl.Explicit)
}

// LearnedRelay is a relay a write's discovery asked because an event named
// it, and which event: an announcement's `relays` tag or a NIP-65 write
// relay of a named person.
type LearnedRelay struct {
	URL string `json:"url"`
	// From is "announcement" or "relay-list" (kind 10002).
	From string `json:"from"`
	// Pubkey signed the event that named it.
	Pubkey string `json:"pubkey"`
	// Round is the extra round that asked it (1 for the first).
	Round int `json:"round"`
}

// relayWants is what the events so far say should be asked: relays in
// first-seen order, each with the event that named it; how many of them
// were not asked yet (fresh), and how many entries were not usable relay
// URLs (ignored).
type relayWants struct {
	asked   map[string]bool
	order   []string
	from    map[string]LearnedRelay
	fresh   int
	ignored int
}

func (w *relayWants) add(raw, from, pubkey string) {
	n, err := RelayURL(raw)
	if err != nil {
		w.ignored++
		return
	}
	if _, ok := w.from[n]; ok {
		return
	}
	w.from[n] = LearnedRelay{URL: n, From: from, Pubkey: pubkey}
	w.order = append(w.order, n)
	if !w.asked[n] {
		w.fresh++
	}
}

// wantedRelays lists, from verified events, the relays every author of
// reach announces in the `relays` tags of their latest same-identifier
// announcement (reach is graph.Reachable: the selected author, the named
// people and everyone a reached announcement names, so every component
// reachable from them), and the write relays of each named pubkey's latest
// NIP-65 relay list, in the order the bound prefers them (the relays given
// are asked before any of these): the selected author's announcement, the
// named people's announcements, their NIP-65 write relays, then the rest of
// reach. It stops collecting once more than limit distinct relays outside
// asked are wanted: the caller fails on that anyway, so a flood of entries
// costs at most limit+1 of them.
func wantedRelays(events []*nostr.Event, identifier, selected string, reach, named []string, asked map[string]bool, limit int) relayWants {
	w := relayWants{asked: asked, from: map[string]LearnedRelay{}}
	latest := latestAnnouncements(events, identifier)
	done := map[string]bool{}
	announced := func(pk string) bool {
		e := latest[pk]
		if e == nil || done[pk] {
			return false
		}
		done[pk] = true
		for _, t := range e.Tags {
			if len(t) < 2 || t[0] != "relays" {
				continue
			}
			for _, r := range t[1:] {
				w.add(r, "announcement", pk)
				if w.fresh > limit {
					return true
				}
			}
		}
		return false
	}
	inReach := map[string]bool{selected: true}
	for _, pk := range reach {
		inReach[pk] = true
	}
	if announced(selected) {
		return w
	}
	for _, pk := range named {
		if inReach[pk] && announced(pk) {
			return w
		}
	}
	for _, pk := range named {
		for _, r := range WriteRelays(events, pk) {
			w.add(r, "relay-list", pk)
			if w.fresh > limit {
				return w
			}
		}
	}
	for _, pk := range reach {
		if announced(pk) {
			return w
		}
	}
	return w
}

func latestAnnouncements(events []*nostr.Event, identifier string) map[string]*nostr.Event {
	var anns []*nostr.Event
	for _, e := range events {
		if e.Kind == graph.KindAnnouncement && e.Tags.GetD() == identifier {
			anns = append(anns, e)
		}
	}
	return graph.Latest(anns)
}

// evidenceRelays are at most limit relays, not asked, not tried and not
// wanted (strict), that the latest same-identifier announcements of
// authors outside reach list, by author in pubkey order: the evidence-only
// relays (MaxEvidenceRelays).
func evidenceRelays(events []*nostr.Event, identifier string, reach []string, asked, tried map[string]bool, wanted map[string]LearnedRelay, limit int) []LearnedRelay {
	if limit <= 0 {
		return nil
	}
	in := make(map[string]bool, len(reach))
	for _, pk := range reach {
		in[pk] = true
	}
	latest := latestAnnouncements(events, identifier)
	var others []string
	for pk := range latest {
		if !in[pk] {
			others = append(others, pk)
		}
	}
	slices.Sort(others)
	var out []LearnedRelay
	seen := map[string]bool{}
	for _, pk := range others {
		for _, t := range latest[pk].Tags {
			if len(t) < 2 || t[0] != "relays" {
				continue
			}
			for _, raw := range t[1:] {
				u, err := RelayURL(raw)
				if err != nil || asked[u] || tried[u] || seen[u] {
					continue
				}
				if _, ok := wanted[u]; ok {
					continue
				}
				seen[u] = true
				out = append(out, LearnedRelay{URL: u, From: "announcement", Pubkey: pk})
				if len(out) == limit {
					return out
				}
			}
		}
	}
	return out
}

// WriteRelays are the write relays of pubkey's latest NIP-65 relay list
// among events (kind 10002 signed by pubkey): the `r` tags without a marker
// or marked "write", raw and in tag order. A "read" or unknown marker is
// not a write relay.
func WriteRelays(events []*nostr.Event, pubkey string) []string {
	var latest *nostr.Event
	for _, e := range events {
		if e.Kind == KindRelayList && e.PubKey == pubkey && (latest == nil || graph.Newer(e, latest)) {
			latest = e
		}
	}
	if latest == nil {
		return nil
	}
	var out []string
	for _, t := range latest.Tags {
		if len(t) < 2 || t[0] != "r" {
			continue
		}
		if len(t) == 2 || t[2] == "" || t[2] == "write" {
			out = append(out, t[1])
		}
	}
	return out
}

// RelayListFilter asks for the NIP-65 relay lists of pubkeys (the valid
// 64-hex ones, once each); ok is false when none is valid.
func RelayListFilter(pubkeys []string) (nostr.Filter, bool) {
	var authors []string
	for _, pk := range pubkeys {
		if nostr.IsValid32ByteHex(pk) && strings.ToLower(pk) == pk {
			authors = append(authors, pk)
		}
	}
	slices.Sort(authors)
	authors = slices.Compact(authors)
	if len(authors) == 0 {
		return nostr.Filter{}, false
	}
	return nostr.Filter{Kinds: []int{KindRelayList}, Authors: authors}, true
}
