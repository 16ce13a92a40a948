package discovery

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/relaypool"
)

// The bounds of a write's relay search (maintainers.md, "Relay
// disagreement": a write fails closed when it cannot establish a complete
// announcement and state set). Relays learned from events may bring the
// relays asked to at most MaxWriteRelays in all, in at most MaxWriteRounds
// rounds after the first; a search that needs more is a *RelayBound error,
// never a silently truncated set. The caller's own relays are always asked.
const (
	MaxWriteRelays = 32
	MaxWriteRounds = 3
)

// MaxEvidenceRelays bounds the evidence-only relays a write asks: relays
// listed by the latest same-identifier announcements of keys nobody the
// write involves reaches (not the selected component, not a named person,
// not reachable from one). Their answers count, their silence does not:
// such an announcement changes no resolution (graph.Reachable), so a relay
// only it lists that does not answer leaves the evidence complete. They are
// asked within the same rounds, do not count toward MaxWriteRelays, and past
// this many the rest are not asked.
const MaxEvidenceRelays = 8

// MaxEvidenceAuthors bounds the unrelated authors whose announcements a
// write verifies per round to learn evidence-only relays from (the first
// in pubkey order): a flood of same-identifier keys costs at most this many
// signature checks a round.
const MaxEvidenceAuthors = 16

// RelaySearch is how a discovery chose its relays beyond the caller's.
type RelaySearch struct {
	// Asked are every relay asked whose answer the result holds, in the
	// order asked: the relays that answered (a write's read is complete).
	// An evidence-only relay that did not answer is not among them: it is
	// in EvidenceUnanswered.
	Asked []string `json:"asked"`
	// Given counts the caller's relays (the user's, the coordinate's
	// hints), the first of Asked.
	Given int `json:"given"`
	// Learned are the relays asked because a verified event named them.
	Learned []LearnedRelay `json:"learned"`
	// Rounds counts the rounds after the first.
	Rounds int `json:"rounds"`
	// Converged: the last answers named no relay that was not asked.
	Converged bool `json:"converged"`
	// Pinned: the caller named the relays (--relay); relays events name
	// were not asked.
	Pinned bool `json:"pinned"`
	// Evidence are the evidence-only relays asked (MaxEvidenceRelays),
	// each with the unrelated announcement that listed it.
	Evidence []LearnedRelay `json:"evidence"`
	// EvidenceUnanswered are those of Evidence that did not answer; their
	// reports are left out of the result, which stays complete without them.
	EvidenceUnanswered []string `json:"evidence_unanswered"`
	// Ignored counts entries of `relays` and `r` tags that were not
	// ws:// or wss:// URLs with a host (RelayURL); they were not dialled.
	Ignored int `json:"ignored"`
}

// NotAnswered is what a preview says among what it did not check: the
// evidence-only relays that were asked and did not answer ("" when every
// relay asked answered).
func (s *RelaySearch) NotAnswered() string {
	if s == nil || len(s.EvidenceUnanswered) == 0 {
		return ""
	}
	return "evidence-only relays that did not answer: " + strings.Join(s.EvidenceUnanswered, ", ")
}

// Checked is the search as one line of a preview's `checked` list.
func (s *RelaySearch) Checked() string {
	if s.Pinned {
		return fmt.Sprintf("relays asked: %d, exactly the relays given (%s); relays that announcements and NIP-65 lists name are not asked when the relays are given",
			len(s.Asked), strings.Join(s.Asked, ", "))
	}
	round := "rounds"
	if s.Rounds == 1 {
		round = "round"
	}
	line := fmt.Sprintf("relays asked: %d (%s): the %d given and %d that the announcements of the components involved and the named people's NIP-65 write relays list; the set converged after %d extra %s",
		len(s.Asked), strings.Join(s.Asked, ", "), s.Given, len(s.Learned), s.Rounds, round)
	if s.Ignored > 0 {
		line += fmt.Sprintf(" (%d listed entries were not ws:// or wss:// URLs and were not dialled)", s.Ignored)
	}
	if len(s.Evidence) > 0 {
		line += fmt.Sprintf("; evidence only (at most %d, not counted toward the %d): %d relays that announcements of unrelated keys under the same identifier list were asked, and their answers count but their silence does not",
			MaxEvidenceRelays, MaxWriteRelays, len(s.Evidence))
		if len(s.EvidenceUnanswered) > 0 {
			line += fmt.Sprintf("; not checked, did not answer: %s", strings.Join(s.EvidenceUnanswered, ", "))
		}
	}
	return line
}

// RelayBound: a write's relay search needed more relays or more rounds
// than its bounds (MaxWriteRelays, MaxWriteRounds), so its evidence cannot
// be complete; nothing may be decided on it.
type RelayBound struct {
	View *View
	// Search is the search up to where it stopped.
	Search RelaySearch
	// Wanted are relays the events named that were not asked (when the
	// relay bound was hit: the first of them, one more than there was room
	// for).
	Wanted []string
	// Rounds is true when the rounds ran out, false when the relays did.
	Rounds bool
	// WantedFrom says, for each of Wanted in its order, whose event named
	// it (Round is 0: it was not asked).
	WantedFrom []LearnedRelay
}

func (e *RelayBound) Error() string {
	if e.Rounds {
		return fmt.Sprintf("the relays to ask for %s did not converge within %d extra rounds", e.View.Coordinate().ATag(), MaxWriteRounds)
	}
	return fmt.Sprintf("the relays to ask for %s are more than %d", e.View.Coordinate().ATag(), MaxWriteRelays)
}

// relayListFilters are the filters a write's first request adds: the NIP-65
// relay lists of the named people (Source.Reach and the viewer), so their
// write relays are known after one round. None for a read or pinned relays.
func (s Source) relayListFilters(viewer string) []nostr.Filter {
	if !s.Write || s.Pinned {
		return nil
	}
	if f, ok := RelayListFilter(append([]string{viewer}, s.Reach...)); ok {
		return []nostr.Filter{f}
	}
	return nil
}

// askMoreRelays asks the relays that the first round's events name.
// A read asks, in one more round, the relays the selected announcement
// lists (the first MaxAnnouncedRelays). A write (Source.Write) asks, in
// rounds until no new relay appears, every relay announced by the latest
// same-identifier announcement of every author graph.Reachable reaches
// (the selected component, the named people, every component reachable
// from them) and the NIP-65 write relays of the named people, within
// MaxWriteRelays and MaxWriteRounds (else *RelayBound). Nothing is asked
// when the caller named the relays. A round a relay did not answer ends
// the search: the read is incomplete anyway. It returns the merged result
// and the reached authors.
func askMoreRelays(ctx context.Context, src Source, pool *relaypool.Pool, res *relaypool.FetchResult, v *View, seeds, reach []string, asked map[string]bool) (*relaypool.FetchResult, []string, error) {
	id := v.Coordinate().Identifier
	if !src.Write {
		if !src.Pinned {
			if extra := NewAnnouncedRelays(InScope(res.Events, id), v.Coordinate(), src.Relays); len(extra) > 0 {
				src.nextRound()
				res = pool.DiscoverMore(ctx, res, extra)
				reach = settle(pool, res, v.Coordinate(), seeds)
				res, reach = coverReached(ctx, src, pool, res, v.Coordinate(), seeds, reach, asked)
			}
		}
		return res, reach, nil
	}
	s := &RelaySearch{Given: len(res.Relays), Pinned: src.Pinned, Learned: []LearnedRelay{}, Evidence: []LearnedRelay{}, EvidenceUnanswered: []string{}, Converged: src.Pinned}
	named := append([]string{v.Viewer}, src.Reach...)
	tried := map[string]bool{} // evidence-only relays asked

	for {
		if b := reachBound(v, res.Events, reach); b != nil {
			s.Asked = relayURLs(res)
			v.Fetch, v.Relays, v.Search = res, s.Asked, s
			return res, reach, b
		}
		if src.Pinned || !res.Complete {
			break
		}
		asked := make(map[string]bool, len(res.Relays))
		for _, r := range res.Relays {
			asked[r.URL] = true
		}
		// The selected author's announcement first: the relays it lists are
		// where the change is published (PublishRelays).
		authors := append([]string{v.Coordinate().Pubkey}, reach...)
		// Evidence-only relays that answered stay in the result but do
		// not count toward the bound.
		strict := len(asked)
		for u := range tried {
			if asked[u] {
				strict--
			}
		}
		w := wantedRelays(res.Events, id, v.Coordinate().Pubkey, authors, named, asked, max(MaxWriteRelays-strict, 0))
		s.Ignored = w.ignored
		var fresh []string
		for _, u := range w.order {
			if !asked[u] {
				fresh = append(fresh, u)
			}
		}
		if len(s.Evidence) < MaxEvidenceRelays {
			// The unrelated announcements' signatures are checked only
			// here, for at most MaxEvidenceAuthors of their authors.
			in := map[string]bool{v.Coordinate().Pubkey: true}
			for _, pk := range reach {
				in[pk] = true
			}
			pool.VerifyAuthors(res, res.PendingAnnouncementAuthors(id, in, MaxEvidenceAuthors))
		}
		ev := evidenceRelays(res.Events, id, authors, asked, tried, w.from, MaxEvidenceRelays-len(s.Evidence))
		if len(fresh) == 0 && (len(ev) == 0 || s.Rounds == MaxWriteRounds) {
			s.Converged = true
			break
		}
		if len(fresh) > 0 && (strict+len(fresh) > MaxWriteRelays || s.Rounds == MaxWriteRounds) {
			s.Asked = relayURLs(res)
			v.Fetch, v.Relays, v.Search = res, s.Asked, s
			from := make([]LearnedRelay, len(fresh))
			for i, u := range fresh {
				from[i] = w.from[u]
			}
			return res, reach, &RelayBound{View: v, Search: *s, Wanted: fresh, WantedFrom: from, Rounds: strict+len(fresh) <= MaxWriteRelays}
		}
		s.Rounds++
		for _, u := range fresh {
			l := w.from[u]
			l.Round = s.Rounds
			s.Learned = append(s.Learned, l)
		}
		var evURLs []string
		for _, l := range ev {
			l.Round = s.Rounds
			tried[l.URL] = true
			s.Evidence = append(s.Evidence, l)
			evURLs = append(evURLs, l.URL)
		}
		src.nextRound()
		res = pool.DiscoverMore(ctx, res, append(fresh, evURLs...))
		res = dropUnanswered(res, evURLs, s)
		reach = settle(pool, res, v.Coordinate(), seeds)
		res, reach = coverReached(ctx, src, pool, res, v.Coordinate(), seeds, reach, asked)
	}
	s.Asked = relayURLs(res)
	v.Search = s
	return res, reach, nil
}

// dropUnanswered leaves out of res the reports of the evidence-only relays
// evidence that did not answer (recorded in s.EvidenceUnanswered): their
// silence is not missing evidence. What they sent before failing stays.
func dropUnanswered(res *relaypool.FetchResult, evidence []string, s *RelaySearch) *relaypool.FetchResult {
	if len(evidence) == 0 {
		return res
	}
	out := res
	kept := make([]relaypool.RelayReport, 0, len(res.Relays))
	out.Complete = true
	for _, r := range res.Relays {
		if r.Status != relaypool.StatusOK && slices.Contains(evidence, r.URL) {
			s.EvidenceUnanswered = append(s.EvidenceUnanswered, r.URL)
			continue
		}
		if r.Status != relaypool.StatusOK {
			out.Complete = false
		}
		kept = append(kept, r)
	}
	out.Relays = kept
	out.Complete = out.Complete && len(kept) > 0
	return out
}

func relayURLs(res *relaypool.FetchResult) []string {
	out := make([]string, 0, len(res.Relays))
	for _, r := range res.Relays {
		out = append(out, r.URL)
	}
	return out
}

// PublishRelays are the relays a write publishes to: every relay asked by a
// read, and for a write the relays given and those the selected author's
// own announcement lists. The other relays a write learned (other people's
// announced relays, NIP-65 write relays) are where their events live, so
// they are evidence for the preview and asked again by the recheck and the
// re-read; an event of ours is not theirs to keep, and a relay that takes
// only its owner's events would make every such change unverified.
func (v *View) PublishRelays() []string {
	if v.Search == nil || v.Search.Pinned {
		return v.Relays
	}
	keep := map[string]bool{}
	for i, u := range v.Relays {
		if i < v.Search.Given {
			keep[u] = true
		}
	}
	for _, l := range v.Search.Learned {
		if l.From == "announcement" && l.Pubkey == v.Coordinate().Pubkey {
			keep[l.URL] = true
		}
	}
	out := make([]string, 0, len(keep))
	for _, u := range v.Relays {
		if keep[u] {
			out = append(out, u)
		}
	}
	return out
}
