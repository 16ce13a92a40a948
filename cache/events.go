package cache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool/verified"
	bolt "go.etcd.io/bbolt"
)

// PutResult counts what Put did.
type PutResult struct {
	Stored int // new events written
	Known  int // already cached (same id)
	// Superseded counts replaceable or addressable events not stored
	// because the cache holds a newer one for their address (NIP-01 order).
	Superseded int
	// Replaced counts cached events deleted because a newer one for their
	// address was stored (the cache keeps only the latest).
	Replaced int
	// Oversized counts events not stored because their JSON is over
	// MaxEventBytes. They are not an error.
	Oversized int
	// Rejected lists ids (or "<nil>") of events that failed the id or
	// signature check, or are ephemeral; they were not stored.
	Rejected []string
}

// Put stores events after checking each one's id and signature itself, and
// silently skips bad ones: use PutReport to see what was skipped. Events
// that come with a proof of verification (relaypool's results) go through
// PutVerified instead, which does not redo the signature check.
func (c *Cache) Put(events ...*nostr.Event) error {
	_, err := c.PutReport(events...)
	return err
}

// PutReport is Put returning counts.
func (c *Cache) PutReport(events ...*nostr.Event) (PutResult, error) {
	var res PutResult
	var good []*nostr.Event
	for _, evt := range events {
		if evt != nil && surelyOversized(evt) {
			res.Oversized++ // not worth checking its signature
			continue
		}
		if !idAndSignatureValid(evt) || isEphemeral(evt.Kind) {
			res.Rejected = append(res.Rejected, eventID(evt))
			continue
		}
		good = append(good, evt)
	}
	return c.store(res, good)
}

// PutVerified stores events whose signatures were already checked: a
// verified.Event can only be made by a check, so the cache stores only
// verified events without paying for a second signature check (about a
// third of a cold `roster repo`, docs/PERFORMANCE.md). It still re-hashes
// each event, so one changed after its check is refused.
func (c *Cache) PutVerified(events ...verified.Event) error {
	_, err := c.PutVerifiedReport(events...)
	return err
}

// PutVerifiedReport is PutVerified returning counts.
func (c *Cache) PutVerifiedReport(events ...verified.Event) (PutResult, error) {
	var res PutResult
	var good []*nostr.Event
	for _, v := range events {
		evt := v.Event()
		if evt != nil && surelyOversized(evt) {
			res.Oversized++ // not worth re-hashing
			continue
		}
		if !v.Valid() || isEphemeral(evt.Kind) {
			res.Rejected = append(res.Rejected, eventID(evt))
			continue
		}
		good = append(good, evt)
	}
	return c.store(res, good)
}

// store writes events that passed the caller's check, skipping oversized
// ones, in transactions of at most chunkBytes each (one for a usual read).
func (c *Cache) store(res PutResult, good []*nostr.Event) (PutResult, error) {
	var batch []encoded
	var batchBytes int64
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		var got PutResult
		err := c.write(batchBytes, func(tx *bolt.Tx) error {
			got = PutResult{} // a retried transaction starts over
			for _, e := range batch {
				if err := putEvent(tx, e, c.reads.tick(), &got); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		res.Stored += got.Stored
		res.Known += got.Known
		res.Superseded += got.Superseded
		res.Replaced += got.Replaced
		batch, batchBytes = nil, 0
		return nil
	}
	oversized := res.Oversized
	for _, evt := range good {
		raw, err := evt.MarshalJSON()
		if err != nil {
			return res, err
		}
		if len(raw) > MaxEventBytes {
			oversized++
			continue
		}
		size := int64(len(raw)) + entryOverhead
		if len(batch) > 0 && batchBytes+size > c.chunkBytes() {
			if err := flush(); err != nil {
				return res, err
			}
		}
		batch = append(batch, encoded{evt, raw})
		batchBytes += size
	}
	if oversized > 0 {
		// Counted in its own small write, so that `roster cache info` can
		// tell how many were skipped even when nothing else was stored.
		err := c.write(entryOverhead, func(tx *bolt.Tx) error {
			meta := tx.Bucket(bucketMeta)
			return putCounter(meta, keyOversized, getCounter(meta, keyOversized)+uint64(oversized))
		})
		if err != nil {
			return res, err
		}
		res.Oversized = oversized
	}
	return res, flush()
}

// surelyOversized tells, without serializing, that an event's JSON is over
// MaxEventBytes: its content and tag values alone are.
func surelyOversized(evt *nostr.Event) bool {
	n := len(evt.Content)
	for _, tag := range evt.Tags {
		for _, v := range tag {
			n += len(v)
		}
	}
	return n > MaxEventBytes
}

// encoded is an event with the JSON the cache stores for it.
type encoded struct {
	evt *nostr.Event
	raw []byte
}

func eventID(evt *nostr.Event) string {
	if evt == nil {
		return "<nil>"
	}
	return evt.ID
}

// idAndSignatureValid checks the id and the signature, as verified.Check
// does for events fetched from relays.
func idAndSignatureValid(evt *nostr.Event) bool {
	_, ok := verified.Check(evt)
	return ok
}

// putEvent stores one event at tick, keeping only the latest event of a
// replaceable or addressable address, and counts what it did in res.
func putEvent(tx *bolt.Tx, e encoded, tick uint64, res *PutResult) error {
	evt := e.evt
	events := tx.Bucket(bucketEvents)
	if events.Get([]byte(evt.ID)) != nil {
		res.Known++
		return nil
	}
	if isReplaceable(evt.Kind) {
		latest := tx.Bucket(bucketLatest)
		key := []byte(addressKey(evt))
		if curID := latest.Get(key); curID != nil {
			cur, err := getEvent(tx, string(curID))
			if err != nil {
				return err
			}
			if cur != nil && !graph.Newer(evt, cur) {
				res.Superseded++
				return nil
			}
			if cur != nil {
				if err := keepComplete(tx, key, cur, evt, tick); err != nil {
					return err
				}
				if err := deleteEvent(tx, cur.ID); err != nil {
					return err
				}
				res.Replaced++
			}
		}
		if err := latest.Put(key, []byte(evt.ID)); err != nil {
			return err
		}
	}
	if err := events.Put([]byte(evt.ID), e.raw); err != nil {
		return err
	}
	if err := tx.Bucket(bucketByKind).Put(kindKey(evt.Kind, evt.ID), nil); err != nil {
		return err
	}
	if err := tx.Bucket(bucketAccess).Put([]byte(evt.ID), tickBytes(tick)); err != nil {
		return err
	}
	if evt.Kind == graph.KindDeletion {
		if err := indexDeletion(tx, evt); err != nil {
			return err
		}
	}
	res.Stored++
	return nil
}

// indexDeletion records the ids and addresses a kind 5 event asks to delete.
func indexDeletion(tx *bolt.Tx, del *nostr.Event) error {
	b := tx.Bucket(bucketDeletions)
	for _, target := range deletionTargets(del) {
		if err := b.Put([]byte(target+"\x00"+del.ID), nil); err != nil {
			return err
		}
	}
	return nil
}

// deletionTargets are the "e:<id>" and "a:<address>" keys a kind 5 event
// targets. Address targets are kept only when the address belongs to the
// deletion's author (NIP-09); id targets are checked against the author on
// lookup, because the target may not be cached yet.
func deletionTargets(del *nostr.Event) []string {
	var out []string
	for _, tag := range del.Tags {
		if len(tag) < 2 {
			continue
		}
		switch tag[0] {
		case "e":
			if nostr.IsValid32ByteHex(tag[1]) {
				out = append(out, "e:"+tag[1])
			}
		case "a":
			if c, err := graph.ParseATag(tag[1]); err == nil && c.Pubkey == del.PubKey {
				out = append(out, "a:"+c.ATag())
			}
		}
	}
	return out
}

// DeletedBy returns the cached kind 5 events that validly ask to delete
// target: an event id (64-hex) or an address "kind:pubkey:d". The cache keeps
// the deleted events themselves (the spec keeps the last signed snapshot
// readable); deciding what a deletion means is the graph's job.
func (c *Cache) DeletedBy(target string) ([]*nostr.Event, error) {
	prefix := "a:" + target
	isID := nostr.IsValid32ByteHex(target)
	if isID {
		prefix = "e:" + target
	}
	var out []*nostr.Event
	err := c.view(func(tx *bolt.Tx) error {
		var targetAuthor string
		if isID {
			if t, err := getEvent(tx, target); err != nil {
				return err
			} else if t != nil {
				targetAuthor = t.PubKey
			}
		}
		cur := tx.Bucket(bucketDeletions).Cursor()
		p := []byte(prefix + "\x00")
		for k, _ := cur.Seek(p); k != nil && bytes.HasPrefix(k, p); k, _ = cur.Next() {
			del, err := getEvent(tx, string(k[len(p):]))
			if err != nil {
				return err
			}
			if del == nil || (targetAuthor != "" && del.PubKey != targetAuthor) {
				continue
			}
			out = append(out, del)
		}
		return nil
	})
	sortEvents(out)
	if err == nil {
		c.touch(out...)
	}
	return out, err
}

// Event returns the cached event with id, or nil.
func (c *Cache) Event(id string) (*nostr.Event, error) {
	var evt *nostr.Event
	err := c.view(func(tx *bolt.Tx) error {
		var err error
		evt, err = getEvent(tx, id)
		return err
	})
	if evt != nil {
		c.touch(evt)
	}
	return evt, err
}

// Query answers a relay filter from the cache alone: ids, kinds, authors,
// tag filters (#d, #a, #e, ...), since, until and limit. Like a relay, it
// returns only the latest event of each replaceable or addressable address
// (the cache keeps no other). Results are newest first (NIP-01 order).
// What it returns counts as read, for eviction.
func (c *Cache) Query(filter nostr.Filter) ([]*nostr.Event, error) {
	if filter.LimitZero {
		return []*nostr.Event{}, nil
	}
	out := []*nostr.Event{}
	err := c.view(func(tx *bolt.Tx) error {
		latest := tx.Bucket(bucketLatest)
		seen := map[string]bool{}
		consider := func(evt *nostr.Event) {
			if seen[evt.ID] || !filter.Matches(evt) {
				return
			}
			seen[evt.ID] = true
			if len(filter.IDs) == 0 && isReplaceable(evt.Kind) && string(latest.Get([]byte(addressKey(evt)))) != evt.ID {
				return
			}
			out = append(out, evt)
		}
		switch {
		case len(filter.IDs) > 0:
			for _, id := range filter.IDs {
				evt, err := getEvent(tx, id)
				if err != nil {
					return err
				}
				if evt != nil {
					consider(evt)
				}
			}
		case len(filter.Kinds) > 0:
			cur := tx.Bucket(bucketByKind).Cursor()
			for _, kind := range uniqueKinds(filter.Kinds) {
				p := kindPrefix(kind)
				events := tx.Bucket(bucketEvents)
				for k, _ := cur.Seek(p); k != nil && bytes.HasPrefix(k, p); k, _ = cur.Next() {
					raw := events.Get(k[len(p):])
					if raw == nil || !mayMatchTags(raw, filter.Tags) {
						continue
					}
					evt, err := decodeEvent(raw)
					if err != nil {
						return err
					}
					consider(evt)
				}
			}
		default:
			err := tx.Bucket(bucketEvents).ForEach(func(_, v []byte) error {
				evt, err := decodeEvent(v)
				if err != nil {
					return err
				}
				consider(evt)
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sortEvents(out)
	if filter.Limit > 0 && len(out) > filter.Limit {
		out = out[:filter.Limit]
	}
	c.touch(out...)
	return out, nil
}

func getEvent(tx *bolt.Tx, id string) (*nostr.Event, error) {
	raw := tx.Bucket(bucketEvents).Get([]byte(id))
	if raw == nil {
		return nil, nil
	}
	return decodeEvent(raw)
}

var errBadRecord = errors.New("stored event does not decode")

// decodeEvent decodes a stored event. It calls the event's own (easyjson)
// decoder: json.Unmarshal would first scan the whole record to validate it,
// which costs as much again on large events.
func decodeEvent(raw []byte) (*nostr.Event, error) {
	evt := &nostr.Event{}
	if err := evt.UnmarshalJSON(raw); err != nil {
		return nil, fmt.Errorf("%w: %v", errBadRecord, err)
	}
	return evt, nil
}

// mayMatchTags is false when a stored event's JSON cannot match the
// filter's tag conditions because it does not contain any of a condition's
// values as a JSON string: a flood of large events under other identifiers
// is then skipped without being decoded. Values that JSON could write
// escaped are not checked here (filter.Matches decides).
func mayMatchTags(raw []byte, tags nostr.TagMap) bool {
	for _, values := range tags {
		plain := len(values) > 0
		for _, v := range values {
			plain = plain && isPlain(v)
		}
		if !plain {
			continue
		}
		found := false
		for _, v := range values {
			if bytes.Contains(raw, []byte(`"`+v+`"`)) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// isPlain is true for strings every JSON encoder writes verbatim.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.:/+@ ", c) >= 0) {
			return false
		}
	}
	return true
}

// sortEvents orders newest first, ties by lowest id, as NIP-01 ranks them.
func sortEvents(evts []*nostr.Event) {
	sort.SliceStable(evts, func(i, j int) bool { return graph.Newer(evts[i], evts[j]) })
}

func kindPrefix(kind int) []byte {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], uint32(kind))
	return b[:]
}

func kindKey(kind int, id string) []byte {
	return append(kindPrefix(kind), id...)
}

func uniqueKinds(kinds []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, k := range kinds {
		if !seen[k] && k >= 0 {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}
