package devrelay

import (
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/nbd-wtf/go-nostr"
)

// Strangers is what Misbehaviour.Strangers makes a relay add to the answer
// of a filter: Count events of Kind (one of the filter's kinds), each
// signed by a key of its own, matching the filter, dated after every event
// the relay stores (from Newest down, one second apart), their content
// padded to Bytes. The same filter gets the same events every time.
type Strangers struct {
	Kind   int
	Count  int
	Bytes  int
	Newest int64
}

// strangers keeps the events Strangers generated, by filter, so a
// repeated request is answered with the same ids. It is shared by every
// relay of the process: signing hundreds of events is the cost of the
// mode, and tests that run several hostile relays pay it once.
var strangers struct {
	mu  sync.Mutex
	gen map[string][]*nostr.Event
}

// strangerEvents are s's events for f (nil when f names authors or ids: a
// stranger cannot match those).
func (r *Relay) strangerEvents(s Strangers, f nostr.Filter) []*nostr.Event {
	if s.Count <= 0 || len(f.Authors) > 0 || len(f.IDs) > 0 {
		return nil
	}
	key := fmt.Sprintf("%d/%d/%d/%d/%s", s.Kind, s.Count, s.Bytes, s.Newest, filterKey("", f))
	strangers.mu.Lock()
	defer strangers.mu.Unlock()
	if evs, ok := strangers.gen[key]; ok {
		return copyAll(evs)
	}
	var tags nostr.Tags
	keys := make([]string, 0, len(f.Tags))
	for k := range f.Tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if v := f.Tags[k]; len(v) > 0 {
			tags = append(tags, nostr.Tag{k, v[0]})
		}
	}
	var out []*nostr.Event
	for i := 0; i < s.Count; i++ {
		evt := &nostr.Event{
			Kind:      s.Kind,
			CreatedAt: nostr.Timestamp(s.Newest - int64(i)),
			Tags:      append(nostr.Tags{{"stranger", fmt.Sprint(i)}}, tags...),
			Content:   strings.Repeat("x", s.Bytes),
		}
		if evt.Kind == 0 && len(f.Kinds) > 0 {
			evt.Kind = f.Kinds[0]
		}
		if err := evt.Sign(nostr.GeneratePrivateKey()); err != nil {
			continue
		}
		if f.Matches(evt) {
			out = append(out, evt)
		}
	}
	if strangers.gen == nil {
		strangers.gen = map[string][]*nostr.Event{}
	}
	strangers.gen[key] = out
	return copyAll(out)
}

func copyAll(evs []*nostr.Event) []*nostr.Event {
	out := make([]*nostr.Event, len(evs))
	for i, e := range evs {
		out[i] = copyEvent(e)
	}
	return out
}

// newestFirst orders events as relays serve them: newest first, equal
// created_at by lowest id.
func newestFirst(evs []*nostr.Event) {
	sort.SliceStable(evs, func(i, j int) bool {
		if evs[i].CreatedAt != evs[j].CreatedAt {
			return evs[i].CreatedAt > evs[j].CreatedAt
		}
		return evs[i].ID < evs[j].ID
	})
}

// forge returns a copy of evt with the same id and content and a signature
// that does not verify (its bytes reversed).
func forge(evt *nostr.Event) *nostr.Event {
	c := copyEvent(evt)
	raw, err := hex.DecodeString(c.Sig)
	if err != nil || len(raw) == 0 {
		c.Sig = strings.Repeat("0", 128)
		return c
	}
	for i, j := 0, len(raw)-1; i < j; i, j = i+1, j-1 {
		raw[i], raw[j] = raw[j], raw[i]
	}
	raw[0] ^= 0xff
	c.Sig = hex.EncodeToString(raw)
	return c
}

// hostileAnswer applies Strangers, CapPerFilter and BadSignature to found,
// the answer of f.
func (r *Relay) hostileAnswer(m Misbehaviour, f nostr.Filter, found []*nostr.Event) []*nostr.Event {
	if m.Strangers != nil {
		if s := m.Strangers(f); s.Count > 0 {
			found = append(found, r.strangerEvents(s, f)...)
			newestFirst(found)
			if f.Limit > 0 && len(found) > f.Limit {
				found = found[:f.Limit]
			}
		}
	}
	if m.CapPerFilter > 0 && len(found) > m.CapPerFilter {
		newestFirst(found)
		found = found[:m.CapPerFilter]
	}
	if m.BadSignature != nil {
		for i, e := range found {
			if m.BadSignature(e) {
				found[i] = forge(e)
			}
		}
	}
	return found
}
