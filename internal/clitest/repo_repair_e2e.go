package clitest

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// LatestEvent is p's newest announcement on the first relay.
func (w *MutWorld) LatestEvent(p Person) *nostr.Event {
	w.T.Helper()
	var best *nostr.Event
	for _, e := range w.Relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{p.Pk}}) {
		if best == nil || graph.Newer(e, best) {
			best = e
		}
	}
	if best == nil {
		w.T.Fatalf("no announcement of %s", p.Name)
	}
	return best
}

// RepublishWithoutRoles signs p's announcement again at created the way
// nak's `git sync` does: its own fields, and of the previous event only
// `web` and `maintainers`.
func (w *MutWorld) RepublishWithoutRoles(p Person, created int64) (complete, damaged *nostr.Event) {
	w.T.Helper()
	complete = w.LatestEvent(p)
	var tags nostr.Tags
	for _, t := range complete.Tags {
		switch t[0] {
		case "d", "name", "description", "clone", "relays", "web", "maintainers":
			tags = append(tags, t)
		}
	}
	tags = append(tags, nostr.Tag{"web", "https://example.invalid/widgets"})
	damaged = p.Sign(w.T, graph.KindAnnouncement, created, tags...)
	w.Seed(damaged)
	return complete, damaged
}
