package watch

// seenSet remembers up to max ids; the oldest is forgotten first.
type seenSet struct {
	max  int
	ids  map[string]bool
	ring []string
	next int
}

func newSeenSet(max int) *seenSet {
	return &seenSet{max: max, ids: make(map[string]bool, max)}
}

// add records id and reports whether it was new.
func (s *seenSet) add(id string) bool {
	if s.ids[id] {
		return false
	}
	if len(s.ring) < s.max {
		s.ring = append(s.ring, id)
	} else {
		delete(s.ids, s.ring[s.next])
		s.ring[s.next] = id
		s.next = (s.next + 1) % s.max
	}
	s.ids[id] = true
	return true
}
