package relaypool

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/nbd-wtf/go-nostr"
)

// MaxREQBytes bounds one REQ message. Relays cap incoming websocket messages
// (khatru at 512,000 bytes, strfry at 128 KiB by default, others lower) and
// reset the connection of a client that exceeds the cap, so a request that
// grew with what others published must be split, not sent whole. 64 KiB is
// under every cap seen in practice.
const MaxREQBytes = 64 << 10

// reqOverhead covers `["REQ","<subscription id>",` and the closing bracket.
const reqOverhead = 64

// splitREQ groups filters into requests whose messages stay under max
// bytes. A filter too big alone is split along its longest list (ids,
// authors or one tag's values) into filters that together match exactly
// what it matched; filters with a limit are never split (the limit would
// change meaning), nor is a list of one value. Small filters share one
// request, so the common case stays one REQ.
func splitREQ(filters []nostr.Filter, max int) [][]nostr.Filter {
	var pieces []nostr.Filter
	for _, f := range filters {
		pieces = append(pieces, splitFilter(f, max-reqOverhead)...)
	}
	var out [][]nostr.Filter
	var cur []nostr.Filter
	size := reqOverhead
	for _, f := range pieces {
		n := filterSize(f) + 1 // and its comma
		if len(cur) > 0 && size+n > max {
			out = append(out, cur)
			cur, size = nil, reqOverhead
		}
		cur = append(cur, f)
		size += n
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func filterSize(f nostr.Filter) int {
	raw, err := f.MarshalJSON()
	if err != nil {
		return 0
	}
	return len(raw)
}

// splitFilter bisects f along its longest list until every piece fits max.
func splitFilter(f nostr.Filter, max int) []nostr.Filter {
	if filterSize(f) <= max || f.Limit > 0 {
		return []nostr.Filter{f}
	}
	tag, n := "", len(f.IDs)
	field := "ids"
	if len(f.Authors) > n {
		field, n = "authors", len(f.Authors)
	}
	keys := make([]string, 0, len(f.Tags))
	for k := range f.Tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if v := f.Tags[k]; len(v) > n {
			field, tag, n = "tag", k, len(v)
		}
	}
	if n < 2 {
		return []nostr.Filter{f}
	}
	a, b := f, f
	switch field {
	case "ids":
		a.IDs, b.IDs = f.IDs[:n/2], f.IDs[n/2:]
	case "authors":
		a.Authors, b.Authors = f.Authors[:n/2], f.Authors[n/2:]
	default:
		a.Tags, b.Tags = copyTagMap(f.Tags), copyTagMap(f.Tags)
		a.Tags[tag], b.Tags[tag] = f.Tags[tag][:n/2], f.Tags[tag][n/2:]
	}
	return append(splitFilter(a, max), splitFilter(b, max)...)
}

func copyTagMap(m nostr.TagMap) nostr.TagMap {
	out := make(nostr.TagMap, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// MaxReasonBytes bounds a relay's CLOSED, OK or error text kept in a report.
const MaxReasonBytes = 512

// cleanText bounds text a relay chose (a CLOSED reason, an OK message, a
// connection error): invalid UTF-8 is replaced and the result is cut to
// MaxReasonBytes. Control and bidirectional characters are kept as sent:
// JSON output carries relay text raw, and human output escapes it where it
// is printed (termtext), the one home of that rule.
func cleanText(s string) string {
	if len(s) <= MaxReasonBytes && utf8.ValidString(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= MaxReasonBytes {
		return s
	}
	cut := MaxReasonBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
