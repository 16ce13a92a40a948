package devrelay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/fiatjaf/eventstore"
	"github.com/fiatjaf/eventstore/slicestore"
	"github.com/nbd-wtf/go-nostr"
)

// Rejection texts, with NIP-01 machine-readable prefixes.
var (
	errDeleted = errors.New("blocked: this event was deleted by its author (NIP-09)")
	errOlder   = errors.New("duplicate: a newer event for this address is already stored")
	errRemoved = errors.New("blocked: this event was deleted by a group moderator")
)

// store wraps eventstore's slicestore, which is not goroutine-safe, with one
// mutex, and adds the storage rules khatru gets wrong: NIP-01 replacement with
// the lowest id winning created_at ties (older replaceables are refused, not
// acknowledged) and NIP-09 deletions that cannot be undone by re-publishing.
type store struct {
	mu sync.Mutex
	ss slicestore.SliceStore
	// removed are ids an authority deleted (remove); they are not stored again.
	removed map[string]bool
}

func newStore() *store {
	s := &store{}
	s.ss.MaxLimit = math.MaxInt32
	_ = s.ss.Init()
	return s
}

// query returns copies of the stored events matching f, newest first.
func (s *store) query(f nostr.Filter) []*nostr.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	found := s.queryLocked(f)
	for i, e := range found {
		found[i] = copyEvent(e)
	}
	return found
}

// copyEvent deep-copies evt, so neither the caller who stored it nor the
// caller who read it can change what the relay holds. (go-nostr's
// Tags.Clone returns nil; copy by hand.)
func copyEvent(evt *nostr.Event) *nostr.Event {
	c := *evt
	c.Tags = make(nostr.Tags, len(evt.Tags))
	for i, t := range evt.Tags {
		c.Tags[i] = append(nostr.Tag(nil), t...)
	}
	return &c
}

func (s *store) queryLocked(f nostr.Filter) []*nostr.Event {
	ch, err := s.ss.QueryEvents(context.Background(), f)
	if err != nil {
		return nil
	}
	var out []*nostr.Event
	for e := range ch {
		out = append(out, e)
	}
	return out
}

// remove deletes the event with this id, and refuses it from now on.
func (s *store) remove(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.removed == nil {
		s.removed = map[string]bool{}
	}
	s.removed[id] = true
	for _, e := range s.queryLocked(nostr.Filter{IDs: []string{id}}) {
		_ = s.ss.DeleteEvent(context.Background(), e)
	}
}

// inject stores evt as is: no validation, no replacement, no deletion check.
func (s *store) inject(evt *nostr.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.ss.SaveEvent(context.Background(), copyEvent(evt))
}

// save applies the relay's storage rules to a verified event. stored is false
// with a nil error for an exact duplicate (acknowledged, not re-broadcast).
func (s *store) save(evt *nostr.Event) (stored bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if evt.Kind != nostr.KindDeletion && s.deletedLocked(evt) {
		return false, errDeleted
	}
	if s.removed[evt.ID] {
		return false, errRemoved
	}
	if nostr.IsReplaceableKind(evt.Kind) || nostr.IsAddressableKind(evt.Kind) {
		prev := s.queryLocked(addressFilter(evt))
		for _, p := range prev {
			if p.ID == evt.ID {
				return false, nil
			}
			if supersedes(p, evt) {
				return false, errOlder
			}
		}
		for _, p := range prev {
			_ = s.ss.DeleteEvent(context.Background(), p)
		}
	}
	if err := s.ss.SaveEvent(context.Background(), copyEvent(evt)); err != nil {
		if err == eventstore.ErrDupEvent {
			return false, nil
		}
		return false, fmt.Errorf("error: %w", err)
	}
	if evt.Kind == nostr.KindDeletion {
		s.applyDeletionLocked(evt)
	}
	return true, nil
}

// supersedes reports whether a wins over b for the same address under NIP-01:
// the newer created_at, and on a tie the lexically lowest id.
func supersedes(a, b *nostr.Event) bool {
	if a.CreatedAt != b.CreatedAt {
		return a.CreatedAt > b.CreatedAt
	}
	return a.ID < b.ID
}

// address is the NIP-01 "kind:pubkey:d" of a replaceable or addressable event
// (d is empty for plain replaceables).
func address(evt *nostr.Event) string {
	d := ""
	if nostr.IsAddressableKind(evt.Kind) {
		d = evt.Tags.GetD()
	}
	return fmt.Sprintf("%d:%s:%s", evt.Kind, evt.PubKey, d)
}

func addressFilter(evt *nostr.Event) nostr.Filter {
	f := nostr.Filter{Kinds: []int{evt.Kind}, Authors: []string{evt.PubKey}}
	if nostr.IsAddressableKind(evt.Kind) {
		f.Tags = nostr.TagMap{"d": []string{evt.Tags.GetD()}}
	}
	return f
}

// deletedLocked reports whether a stored deletion request by evt's own author
// covers evt: by id, or by address when the request is not older than evt.
func (s *store) deletedLocked(evt *nostr.Event) bool {
	byID := nostr.Filter{Kinds: []int{nostr.KindDeletion}, Authors: []string{evt.PubKey}, Tags: nostr.TagMap{"e": []string{evt.ID}}}
	if len(s.queryLocked(byID)) > 0 {
		return true
	}
	if !nostr.IsReplaceableKind(evt.Kind) && !nostr.IsAddressableKind(evt.Kind) {
		return false
	}
	since := evt.CreatedAt
	byAddr := nostr.Filter{Kinds: []int{nostr.KindDeletion}, Authors: []string{evt.PubKey}, Tags: nostr.TagMap{"a": []string{address(evt)}}, Since: &since}
	return len(s.queryLocked(byAddr)) > 0
}

// applyDeletionLocked removes what a deletion request may delete: events by the
// same author named by `e`, and versions of an `a` address authored by the
// same pubkey up to the request's created_at. Deletions are never deleted.
func (s *store) applyDeletionLocked(del *nostr.Event) {
	var targets []*nostr.Event
	for _, tag := range del.Tags {
		if len(tag) < 2 {
			continue
		}
		switch tag[0] {
		case "e":
			targets = append(targets, s.queryLocked(nostr.Filter{IDs: []string{tag[1]}, Authors: []string{del.PubKey}})...)
		case "a":
			parts := strings.SplitN(tag[1], ":", 3)
			var kind int
			if len(parts) != 3 || parts[1] != del.PubKey {
				continue
			}
			if _, err := fmt.Sscanf(parts[0], "%d", &kind); err != nil {
				continue
			}
			if !nostr.IsReplaceableKind(kind) && !nostr.IsAddressableKind(kind) {
				continue // `a` addresses only (parameterized) replaceable events
			}
			until := del.CreatedAt
			f := nostr.Filter{Kinds: []int{kind}, Authors: []string{del.PubKey}, Until: &until}
			if nostr.IsAddressableKind(kind) {
				f.Tags = nostr.TagMap{"d": []string{parts[2]}}
			}
			targets = append(targets, s.queryLocked(f)...)
		}
	}
	for _, t := range targets {
		if t.Kind != nostr.KindDeletion {
			_ = s.ss.DeleteEvent(context.Background(), t)
		}
	}
}
