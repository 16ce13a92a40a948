package groups

import (
	"context"
	"slices"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/workspace/pipeline"
)

// KindGroupsList is NIP-51's "simple groups" list (nip-29.md "Storing your
// list of groups"): a replaceable event whose `group` tags name a group id,
// the relay hosting it and an optional name.
const KindGroupsList = 10009

// ListEntry is one `["group", <id>, <relay>, <name>?]` tag.
type ListEntry struct {
	ID    string `json:"id"`
	Relay string `json:"relay"`
	Name  string `json:"name,omitempty"`
}

// EntriesOf reads the group tags of a kind 10009 (nil evt: none).
func EntriesOf(evt *nostr.Event) []ListEntry {
	out := []ListEntry{}
	if evt == nil {
		return out
	}
	for _, t := range evt.Tags {
		if len(t) >= 3 && t[0] == "group" && t[1] != "" {
			e := ListEntry{ID: t[1], Relay: t[2]}
			if len(t) > 3 {
				e.Name = t[3]
			}
			out = append(out, e)
		}
	}
	return out
}

// Lists asks relays for the newest kind 10009 of each author in one request
// and returns them by author (a valid signature, greatest created_at, then
// lowest id: NIP-01's replaceable order). complete is false when a relay
// did not answer.
func Lists(ctx context.Context, r pipeline.Relays, relays, authors []string) (lists map[string]*nostr.Event, complete bool) {
	lists, _, complete = ListsRead(ctx, r, relays, authors)
	return lists, complete
}

// ListsRead is Lists with each relay's status ("ok", "timeout", ...), so
// a caller can tell a relay that timed out from one that refused.
func ListsRead(ctx context.Context, r pipeline.Relays, relays, authors []string) (lists map[string]*nostr.Event, statuses []string, complete bool) {
	lists = map[string]*nostr.Event{}
	if len(authors) == 0 || len(relays) == 0 {
		return lists, nil, true
	}
	res := r.Fetch(ctx, relays, nostr.Filter{Kinds: []int{KindGroupsList}, Authors: authors})
	for _, rr := range res.Relays {
		statuses = append(statuses, rr.Status)
	}
	for _, e := range res.Events {
		if e.Kind != KindGroupsList || !slices.Contains(authors, e.PubKey) || !e.CheckID() {
			continue
		}
		if ok, err := e.CheckSignature(); err != nil || !ok {
			continue
		}
		if cur := lists[e.PubKey]; cur == nil || e.CreatedAt > cur.CreatedAt || e.CreatedAt == cur.CreatedAt && e.ID < cur.ID {
			lists[e.PubKey] = e
		}
	}
	return lists, statuses, res.Complete
}

// WithEntry is prev (my current 10009, nil for none) with a group tag for
// e appended, or changed false when a tag already names e's id on e's
// relay. Every other tag, and the content (NIP-51 private items are
// encrypted there), is kept byte for byte; created_at moves past prev's so
// the new version replaces it.
func WithEntry(prev *nostr.Event, e ListEntry, now nostr.Timestamp) (evt *nostr.Event, changed bool) {
	return WithEntryFrom(prev, e, "", now)
}

// WithEntryFrom is WithEntry that also drops the group tags naming e's id
// on relay from (when not ""): my participation follows a group that moved
// (nip-29.md "Detecting migrations and forks").
func WithEntryFrom(prev *nostr.Event, e ListEntry, from string, now nostr.Timestamp) (evt *nostr.Event, changed bool) {
	next := successor(prev, now)
	kept := next.Tags
	next.Tags = nostr.Tags{}
	have := false
	for _, t := range kept {
		if len(t) >= 3 && t[0] == "group" && t[1] == e.ID {
			if from != "" && sameRelay(t[2], from) && !sameRelay(t[2], e.Relay) {
				changed = true
				continue
			}
			have = have || sameRelay(t[2], e.Relay)
		}
		next.Tags = append(next.Tags, t)
	}
	if !have {
		tag := nostr.Tag{"group", e.ID, e.Relay}
		if e.Name != "" {
			tag = append(tag, e.Name)
		}
		next.Tags = append(next.Tags, tag)
		changed = true
	}
	if !changed {
		return nil, false
	}
	return next, true
}

// WithoutEntry is prev without the group tags naming id on relay (any
// relay when relay is ""), or changed false when none does; the rest is kept
// as WithEntry keeps it.
func WithoutEntry(prev *nostr.Event, id, relay string, now nostr.Timestamp) (evt *nostr.Event, changed bool) {
	if prev == nil {
		return nil, false
	}
	next := successor(prev, now)
	next.Tags = nostr.Tags{}
	for _, t := range prev.Tags {
		if len(t) >= 3 && t[0] == "group" && t[1] == id && (relay == "" || sameRelay(t[2], relay)) {
			changed = true
			continue
		}
		next.Tags = append(next.Tags, t)
	}
	if !changed {
		return nil, false
	}
	return next, true
}

// successor is an unsigned copy of prev's tags and content dated after it.
func successor(prev *nostr.Event, now nostr.Timestamp) *nostr.Event {
	next := &nostr.Event{Kind: KindGroupsList, CreatedAt: now, Tags: nostr.Tags{}}
	if prev == nil {
		return next
	}
	next.Content = prev.Content
	for _, t := range prev.Tags {
		next.Tags = append(next.Tags, slices.Clone(t))
	}
	if next.CreatedAt <= prev.CreatedAt {
		next.CreatedAt = prev.CreatedAt + 1
	}
	return next
}

func sameRelay(a, b string) bool { return nostr.NormalizeURL(a) == nostr.NormalizeURL(b) }
