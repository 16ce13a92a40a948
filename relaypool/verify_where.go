package relaypool

import (
	"github.com/nbd-wtf/go-nostr"
)

// VerifyWhere is VerifyAuthors for pending events chosen by keep rather
// than by author (discovery's role-scoped events: the issues, patches and
// pull requests they name, and their authors' own actions on them), at
// most limit of them, newest first; keep sees events whose signature is not
// checked yet, so it may only choose, never trust. It reports how many it
// checked.
func (p *Pool) VerifyWhere(res *FetchResult, limit int, keep func(*nostr.Event) bool) int {
	var chosen []*nostr.Event
	for _, copies := range res.pending {
		if e := first(copies); keep(e) {
			chosen = append(chosen, e)
		}
	}
	if len(chosen) == 0 {
		return 0
	}
	sortEvents(chosen)
	if len(chosen) > limit {
		chosen = chosen[:limit]
	}
	added := false
	for _, e := range chosen {
		if p.settleCopies(res, e.ID) {
			added = true
		}
	}
	if added {
		sortEvents(res.Events)
	}
	return len(chosen)
}
