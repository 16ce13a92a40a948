package relaypool

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// debugf writes one line of the request log (Options.Debug) when it is
// on. The log says what was asked and how each relay answered, never an
// event's content or a signature: kinds, counts, short ids and the
// relay's own status words.
func (p *Pool) debugf(format string, args ...any) {
	if p.opts.Debug != nil {
		p.opts.Debug(fmt.Sprintf(format, args...))
	}
}

// FilterSummary is a filter in a few words: its kinds, how many authors,
// ids and tag values it names (the first author and id shortened), its
// time bounds and its limit.
func FilterSummary(f nostr.Filter) string {
	var parts []string
	if len(f.Kinds) > 0 {
		ks := make([]string, len(f.Kinds))
		for i, k := range f.Kinds {
			ks[i] = fmt.Sprint(k)
		}
		parts = append(parts, "kinds "+strings.Join(ks, ","))
	}
	if n := len(f.Authors); n > 0 {
		parts = append(parts, fmt.Sprintf("%d author(s) %s…", n, short(f.Authors[0])))
	}
	if n := len(f.IDs); n > 0 {
		parts = append(parts, fmt.Sprintf("%d id(s) %s…", n, short(f.IDs[0])))
	}
	tags := make([]string, 0, len(f.Tags))
	for k, vs := range f.Tags {
		tags = append(tags, fmt.Sprintf("#%s×%d", k, len(vs)))
	}
	sort.Strings(tags)
	parts = append(parts, tags...)
	if f.Since != nil {
		parts = append(parts, "since "+f.Since.Time().UTC().Format(time.RFC3339))
	}
	if f.Until != nil {
		parts = append(parts, "until "+f.Until.Time().UTC().Format(time.RFC3339))
	}
	if f.Limit > 0 {
		parts = append(parts, fmt.Sprintf("limit %d", f.Limit))
	}
	if len(parts) == 0 {
		return "{}"
	}
	return "{" + strings.Join(parts, " ") + "}"
}

func filtersSummary(fs []nostr.Filter) string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = FilterSummary(f)
	}
	return strings.Join(out, " ")
}

func short(hex string) string {
	if len(hex) > 8 {
		return hex[:8]
	}
	return hex
}
