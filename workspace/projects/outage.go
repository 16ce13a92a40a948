package projects

import (
	"strings"

	"github.com/roster-cli/roster/workspace/pipeline"
)

// OutageFallback is a read during an outage, as a workspace read does it:
// when no relay that answered rd holds a valid projection and some relay
// did not answer, the last verified projection cached from a silent relay
// (verified again against that relay's cached self) answers instead,
// marked stale. It never becomes the basis of a change: the writes read
// live. reason lists each silent relay and its outcome; ok is false (and
// rd is returned as it is) when the cache has nothing for those relays or
// there is no store.
func OutageFallback(store pipeline.Store, c Coordinate, rd ReadResult) (out ReadResult, reason string, ok bool) {
	_, silent := rd.Failures()
	if store == nil || rd.Best != nil || len(silent) == 0 {
		return rd, "", false
	}
	var urls, why []string
	for _, r := range silent {
		urls = append(urls, r.URL)
		why = append(why, r.URL+": "+pipeline.Outcome(r.Status, r.Reason))
	}
	cached := ReadStore(store, urls, c)
	if cached.Best == nil {
		return rd, "", false
	}
	// Keep the live outcome of every relay asked; only the state is cached.
	cached.Relays, cached.Complete = rd.Relays, rd.Complete
	return cached, strings.Join(why, "; "), true
}
