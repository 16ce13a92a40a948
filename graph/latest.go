package graph

import "github.com/nbd-wtf/go-nostr"

// Newer reports whether a replaces b under NIP-01 replaceable ordering: newer
// created_at wins, and on a tie the lowest id wins. (go-nostr's
// CompareEventPtrReverse breaks ties the other way.)
func Newer(a, b *nostr.Event) bool {
	if a.CreatedAt != b.CreatedAt {
		return a.CreatedAt > b.CreatedAt
	}
	return a.ID < b.ID
}

// Latest returns the newest kind 30617 event per author. Callers pass events
// for a single identifier; other kinds are ignored.
func Latest(events []*nostr.Event) map[string]*nostr.Event {
	out := map[string]*nostr.Event{}
	for _, e := range events {
		if e == nil || e.Kind != KindAnnouncement {
			continue
		}
		if cur, ok := out[e.PubKey]; !ok || Newer(e, cur) {
			out[e.PubKey] = e
		}
	}
	return out
}

// Deletion is a kind 5 request that removed an author's latest announcement.
type Deletion struct {
	EventID string `json:"event_id"`
	Time    int64  `json:"time"`
}

// snapshot is the discovered input reduced to what resolution uses.
type snapshot struct {
	identifier string
	anns       map[string]*Announcement // latest, parseable, not deleted
	lastSeen   map[string]*Announcement // latest parseable, even if deleted
	deleted    map[string]Deletion      // author -> deletion of their latest
	estimates  map[string]int64         // Options.DepartureEstimates
}

// buildSnapshot parses the latest announcement per author for identifier
// and applies deletions. A deleted latest announcement is not replaced by an
// older one: falling back would violate NIP-01 replacement ordering.
func buildSnapshot(events []*nostr.Event, identifier string) *snapshot {
	var anns, dels []*nostr.Event
	for _, e := range events {
		if e == nil {
			continue
		}
		switch e.Kind {
		case KindAnnouncement:
			if d := e.Tags.GetD(); d == identifier {
				anns = append(anns, e)
			}
		case KindDeletion:
			dels = append(dels, e)
		}
	}
	s := &snapshot{
		identifier: identifier,
		anns:       map[string]*Announcement{},
		lastSeen:   map[string]*Announcement{},
		deleted:    map[string]Deletion{},
	}
	for author, e := range Latest(anns) {
		a, err := ParseAnnouncement(e)
		if err != nil {
			continue
		}
		s.lastSeen[author] = a
		if d, ok := deletionOf(e, dels, NewCoordinate(author, identifier).ATag()); ok {
			s.deleted[author] = d
			continue
		}
		s.anns[author] = a
	}
	addressDeletions(s, dels)
	return s
}

// addressDeletions records a deletion for authors whose announcement no
// relay returned but who signed a kind 5 naming this coordinate by `a`:
// "If relays no longer retain that announcement, the coordinate and signed
// deletion evidence still support the lifecycle notice." An `e` deletion of
// an unknown event cannot be tied to this coordinate and proves nothing.
// Without the deleted versions the boundary is the latest such request: by
// NIP-09 it covers every version up to its created_at, so it is the one
// request certain to postdate whatever was deleted (ties: lowest id).
func addressDeletions(s *snapshot, dels []*nostr.Event) {
	for _, d := range dels {
		if _, seen := s.lastSeen[d.PubKey]; seen {
			continue // deletionOf already judged it against the announcement
		}
		addr := NewCoordinate(d.PubKey, s.identifier).ATag()
		hit := false
		for _, t := range d.Tags {
			if len(t) >= 2 && t[0] == "a" && t[1] == addr {
				hit = true
				break
			}
		}
		if !hit {
			continue
		}
		cur, ok := s.deleted[d.PubKey]
		if !ok || int64(d.CreatedAt) > cur.Time || int64(d.CreatedAt) == cur.Time && d.ID < cur.EventID {
			s.deleted[d.PubKey] = Deletion{EventID: d.ID, Time: int64(d.CreatedAt)}
		}
	}
}

// deletionOf is the NIP-09 deletion rule, for announcements and state
// alike: the earliest same-author kind 5 that deletes e by id, or by its
// address addr ("kind:pubkey:d") with created_at at or after e's.
func deletionOf(e *nostr.Event, dels []*nostr.Event, addr string) (Deletion, bool) {
	if len(dels) == 0 {
		return Deletion{}, false
	}
	var best *nostr.Event
	for _, d := range dels {
		if d.PubKey != e.PubKey {
			continue
		}
		hit := false
		for _, t := range d.Tags {
			if len(t) < 2 {
				continue
			}
			if t[0] == "e" && t[1] == e.ID || t[0] == "a" && t[1] == addr && d.CreatedAt >= e.CreatedAt {
				hit = true
				break
			}
		}
		if hit && (best == nil || d.CreatedAt < best.CreatedAt || d.CreatedAt == best.CreatedAt && d.ID < best.ID) {
			best = d
		}
	}
	if best == nil {
		return Deletion{}, false
	}
	return Deletion{EventID: best.ID, Time: int64(best.CreatedAt)}, true
}
