package graph

import (
	"fmt"
	"strconv"

	"github.com/nbd-wtf/go-nostr"
)

// Unsigned event generation for property, fuzz and benchmark inputs: graph
// never checks signatures (the caller does), so ids are computed but
// events are not signed, which keeps large inputs cheap to build.

var fuzzAliases = []string{"alice", "bob", "carol", "dave", "erin", "frank"}

func unsigned(author string, createdAt int64, tags nostr.Tags) *nostr.Event {
	e := &nostr.Event{PubKey: author, Kind: KindAnnouncement, CreatedAt: nostr.Timestamp(createdAt), Tags: append(nostr.Tags{{"d", testID}}, tags...)}
	e.ID = e.GetID()
	return e
}

// eventsFromBytes turns arbitrary bytes into a small, adversarial event set:
// several versions per author, equal timestamps, malformed boundaries,
// self-defer, multiple M, legacy tags and deletions.
func eventsFromBytes(data []byte) []*nostr.Event {
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	var out []*nostr.Event
	for len(data) > 0 && len(out) < 24 {
		author := pk(fuzzAliases[int(next())%len(fuzzAliases)])
		created := int64(next() % 8)
		kindSel := next()
		if kindSel%11 == 0 {
			d := &nostr.Event{PubKey: author, Kind: KindDeletion, CreatedAt: nostr.Timestamp(created)}
			if kindSel%2 == 0 || len(out) == 0 {
				d.Tags = nostr.Tags{{"a", NewCoordinate(author, testID).ATag()}}
			} else {
				d.Tags = nostr.Tags{{"e", out[int(next())%len(out)].ID}}
			}
			d.ID = d.GetID()
			out = append(out, d)
			continue
		}
		var tags nostr.Tags
		for n := int(next() % 6); n > 0; n-- {
			switch c := next() % 10; {
			case c < 7:
				letter := []string{"M", "m", "o"}[c%3]
				tag := nostr.Tag{letter}
				switch s := next() % 9; {
				case s < 6:
					tag = append(tag, pk(fuzzAliases[s]))
				case s == 6:
					tag = append(tag, "not-hex")
				case s == 7:
					tag = append(tag, "")
				}
				for b := int(next() % 5); b > 0; b-- {
					switch v := next(); {
					case v%7 == 0:
						tag = append(tag, DeferSentinel)
					case v%13 == 0:
						tag = append(tag, "x"+strconv.Itoa(int(v)))
					default:
						tag = append(tag, strconv.Itoa(int(v%10)))
					}
				}
				tags = append(tags, tag)
			case c < 9:
				tag := nostr.Tag{"maintainers"}
				for b := int(next() % 4); b > 0; b-- {
					tag = append(tag, pk(fuzzAliases[int(next())%len(fuzzAliases)]))
				}
				tags = append(tags, tag)
			default:
				tags = append(tags, nostr.Tag{"x-unknown", fmt.Sprint(next())})
			}
		}
		out = append(out, unsigned(author, created, tags))
	}
	return out
}

// canonicalRoster is the benchmark shape: a lead listing n-1 co-maintainers,
// each accepting with M lead + self-m, every projection correct.
func canonicalRoster(n int) ([]*nostr.Event, string) {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = syntheticKey(i)
	}
	lead := keys[0]
	leadTags := nostr.Tags{{"M", lead}}
	proj := nostr.Tag{"maintainers", lead}
	for _, k := range keys[1:] {
		leadTags = append(leadTags, nostr.Tag{"m", k, "100"})
		proj = append(proj, k)
	}
	leadTags = append(leadTags, proj)
	out := []*nostr.Event{unsigned(lead, 1000, leadTags)}
	for i, k := range keys[1:] {
		out = append(out, unsigned(k, int64(100+i%50), nostr.Tags{{"M", lead, "100"}, {"m", k, "100"}, {"maintainers", lead, k}}))
	}
	return out, lead
}

// syntheticKey is a distinct 64-hex string per index. Graph treats pubkeys
// as opaque 64-hex; real keys would only slow the setup.
func syntheticKey(i int) string {
	return fmt.Sprintf("%064x", uint64(i)*0x9e3779b97f4a7c15+1)
}
