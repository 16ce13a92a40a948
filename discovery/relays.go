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
// reachable from them), then the write relays of each named pubkey's latest
// NIP-65 relay list. It stops collecting once more than limit distinct
// relays outside asked are wanted: the caller fails on that anyway, so a
// flood of entries costs at most limit+1 of them.
func wantedRelays(events []*nostr.Event, identifier string, reach, named []string, asked map[string]bool, limit int) relayWants {
	w := relayWants{asked: asked, from: map[string]LearnedRelay{}}
	var anns []*nostr.Event
	for _, e := range events {
		if e.Kind == graph.KindAnnouncement && e.Tags.GetD() == identifier {
			anns = append(anns, e)
		}
	}
	latest := graph.Latest(anns)
	done := map[string]bool{}
	for _, pk := range reach {
		e := latest[pk]
		if e == nil || done[pk] {
			continue
		}
		done[pk] = true
		for _, t := range e.Tags {
			if len(t) < 2 || t[0] != "relays" {
				continue
			}
			for _, r := range t[1:] {
				w.add(r, "announcement", pk)
				if w.fresh > limit {
					return w
				}
			}
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
	return w
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
