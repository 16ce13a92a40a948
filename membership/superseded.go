package membership

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// The last re-read. Relays offer no compare-and-swap, and the recheck's
// consistent cut leaves a window: another writer (another machine, another
// home) whose edit a relay releases within CutWindow after ours was
// accepted can replace ours, or undo its effect, after our verification
// read. So once verified, the change waits until CutWindow has passed since
// the relays accepted it, reads the repository once more and checks that
// the change is still in effect: its own coordinate's latest version on
// each relay is the event published or a newer one that carries the same
// change, and what it did to people and the lead (the preview's
// simulation) still holds. If not, the edit that won is named and the
// command exits 6 `superseded` with the intent to rerun; it never signs
// again by itself (a concurrent change means a fresh preview).

// confirmAfterCut is the last re-read of a verified change whose event the
// relays accepted at accepted. nil: the change is still in effect.
func (p Pipeline) confirmAfterCut(ctx context.Context, out *Outcome, evt *nostr.Event, accepted time.Time) error {
	if out.Before == nil || out.Before.Fetch == nil || out.After == nil {
		return nil // no relay read to repeat (offline is refused earlier)
	}
	if wait := time.Until(accepted.Add(CutWindow)); wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return stoppedAfterSending(ctx, out, evt, PhaseVerifying)
		}
	}
	// The address asked with a since: a filter no earlier request used, so
	// a relay that answers repeated filters from a cache answers it fresh.
	var also []nostr.Filter
	if f, ok := relaypool.AddressFilter(evt); ok {
		since := nostr.Timestamp(evt.CreatedAt)
		f.Since = &since
		also = append(also, f)
	}
	final, err := p.again(ctx, out.Before, also...)
	if ctx.Err() != nil {
		return stoppedAfterSending(ctx, out, evt, PhaseVerifying)
	}
	// A view every relay answered is what this check needs even when the
	// read reports an error about its content (a relay answering the
	// repeated filters from a cache with the version ours replaced, which
	// is stale-relays to a write): what verification saw is added below.
	if final != nil && final.Fetch != nil && final.Fetch.Complete {
		err = nil
	}
	if err != nil || final == nil {
		why := "no answer"
		if err != nil {
			why = discovery.Why(err)
		}
		return &Failure{Failure: failure.Failure{Code: KindUnverified, Class: failure.Unverified, Msg: fmt.Sprintf("published %s, but verification did not complete", evt.ID)}, Outcome: out, Problems: []string{"re-reading the repository after the cut window failed, so another edit released meanwhile cannot be ruled out: " + why}}
	}
	noteOlderServed(out, final.Fetch, evt)
	// What verification saw stays in: a relay answering from a cache must
	// not make the change look undone.
	final = final.Including(append(append([]*nostr.Event(nil), out.After.Events...), evt))
	if won := ownVersionWon(out, evt, final); len(won) > 0 {
		out.Verified = false
		return superseded(out, evt, won)
	}
	if lostTexts := lostEffects(out.Plan, final.Resolution); len(lostTexts) > 0 {
		lost := plainTexts(lostTexts)
		out.Verified = false
		out.After = final
		if won := arrivedSince(out, evt, final); len(won) > 0 {
			f := superseded(out, evt, won)
			f.Problems = append(f.Problems, lost...)
			return f
		}
		return &Failure{Failure: failure.Failure{Code: KindUnverified, Class: failure.Unverified, Msg: fmt.Sprintf("published %s, but re-read after the cut window the change is no longer in effect", evt.ID)}, Outcome: out, Problems: lost, ProblemTexts: lostTexts}
	}
	out.After = final
	return nil
}

// ownVersionWon maps each relay whose latest version of the coordinate is
// newer than evt and lacks its change to that version's id.
func ownVersionWon(out *Outcome, evt *nostr.Event, final *discovery.View) map[string]string {
	won := map[string]string{}
	if out.Delivery == nil || final.Fetch == nil {
		return won
	}
	for _, r := range out.Delivery.Relays {
		if !r.OK {
			continue
		}
		if w := relaypool.LatestOn(final.Fetch, r.URL, evt); w != nil && w.ID != evt.ID && graph.Newer(w, evt) &&
			!carriesChange(w, out.Plan.Current, evt) {
			won[r.URL] = w.ID
		}
	}
	return won
}

// arrivedSince maps each relay to the announcement, state or deletion it
// serves in final that the verification read did not have (the lowest id
// where several): the edits that can have undone the change.
func arrivedSince(out *Outcome, evt *nostr.Event, final *discovery.View) map[string]string {
	won := map[string]string{}
	if final.Fetch == nil {
		return won
	}
	seen := map[string]bool{evt.ID: true}
	for _, e := range out.After.Events {
		seen[e.ID] = true
	}
	for _, e := range final.Events {
		if seen[e.ID] || (e.Kind != graph.KindAnnouncement && e.Kind != graph.KindState && e.Kind != nostr.KindDeletion) {
			continue
		}
		for _, r := range final.Fetch.Sources[e.ID] {
			if cur, ok := won[r]; !ok || e.ID < cur {
				won[r] = e.ID
			}
		}
	}
	return won
}

// carriesChange reports whether w, a newer version of the coordinate than
// evt, keeps evt's change over before (the version evt replaced): every tag
// evt added is in w and every tag it removed is not. The derived
// `maintainers` projection is left out: a later edit recomputes it.
func carriesChange(w, before, evt *nostr.Event) bool {
	key := func(t nostr.Tag) string { return strings.Join(t, "\x00") }
	set := func(e *nostr.Event) map[string]bool {
		m := map[string]bool{}
		if e != nil {
			for _, t := range e.Tags {
				if len(t) > 0 && t[0] != "maintainers" {
					m[key(t)] = true
				}
			}
		}
		return m
	}
	old, mine, theirs := set(before), set(evt), set(w)
	for k := range mine {
		if !old[k] && !theirs[k] {
			return false
		}
	}
	for k := range old {
		if !mine[k] && theirs[k] {
			return false
		}
	}
	return true
}

// LostEffects are the effects of plan's change (its simulation: who is
// newly invited or confirmed, removed, withdrawn, gains or loses the
// moderator role, and the lead it sets) that r no longer shows, one line
// each. Empty: the change is in effect in r.
func LostEffects(plan *preflight.Plan, r *graph.Resolution) []string {
	return plainTexts(lostEffects(plan, r))
}

// lostEffects are LostEffects as parts, the people they name as values.
func lostEffects(plan *preflight.Plan, r *graph.Resolution) []suggest.Block {
	if plan == nil || plan.After == nil || r == nil {
		return nil
	}
	listed := func(ms []graph.Member, pk string) bool {
		return slices.ContainsFunc(ms, func(m graph.Member) bool { return m.Pubkey == pk })
	}
	var out []suggest.Block
	who := func(pk string) suggest.Part { return suggest.Who(graph.Npub(pk)) }
	sim := plan.Sim
	for _, pk := range sim.NewlyConfirmed {
		if !r.Confirmed(pk) {
			out = append(out, suggest.Block{who(pk), suggest.Say(" is not a confirmed maintainer")})
		}
	}
	// An invitation, to either role, stands while the invitee is listed
	// where the preview lists them (invited, or confirmed since).
	for _, pk := range sim.NewlyInvited {
		if listed(plan.After.Maintainers, pk) && !listed(r.Maintainers, pk) ||
			listed(plan.After.Moderators, pk) && !listed(r.Moderators, pk) {
			out = append(out, suggest.Block{who(pk), suggest.Say(" is not invited")})
		}
	}
	for _, pk := range sim.Lost {
		if r.Confirmed(pk) {
			out = append(out, suggest.Block{who(pk), suggest.Say(" is still a confirmed maintainer")})
		}
	}
	for _, pk := range sim.InvitationsWithdrawn {
		if listed(r.Maintainers, pk) && !listed(plan.After.Maintainers, pk) ||
			listed(r.Moderators, pk) && !listed(plan.After.Moderators, pk) {
			out = append(out, suggest.Block{who(pk), suggest.Say("'s invitation is not withdrawn")})
		}
	}
	for _, pk := range sim.ModeratorsGained {
		if !listed(r.Moderators, pk) {
			out = append(out, suggest.Block{who(pk), suggest.Say(" is not a moderator")})
		}
	}
	for _, pk := range sim.ModeratorsLost {
		if listed(r.Moderators, pk) {
			out = append(out, suggest.Block{who(pk), suggest.Say(" is still a moderator")})
		}
	}
	if plan.Before != nil && plan.Before.Lead != plan.After.Lead && r.Lead != plan.After.Lead {
		out = append(out, suggest.Sayf("the lead is %s, not %s", dashWho(r.Lead), dashWho(plan.After.Lead)))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// dashWho is the person pubkey as a message part, "-" for nobody.
func dashWho(pubkey string) any {
	if pubkey == "" {
		return "-"
	}
	return suggest.Person(graph.Npub(pubkey))
}
