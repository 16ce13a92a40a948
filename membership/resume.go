package membership

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// Resume failure kinds (besides KindConcurrentChange, KindUnverified and
// KindPublishFailed).
const (
	// KindPendingExpired: an event of the unfinished write some relays lack
	// is older than the acceptance window; nothing was sent.
	KindPendingExpired = "pending-expired"
	// KindPendingIncomplete: the journal holds only part of the write's
	// events (a file was removed by hand); nothing was sent.
	KindPendingIncomplete = "pending-incomplete"
)

// Resumed is what `roster pending resume` did with one unfinished write of
// a repository (a membership change or a state publication).
type Resumed struct {
	Write journal.Write
	// Holding maps each event id to the relays that held it before the
	// resume sent anything.
	Holding map[string][]string
	// Sent maps each event id that was sent again to its delivery.
	Sent map[string]*relaypool.Delivery
	// After is the verification's read.
	After    *discovery.View
	Verified bool
}

// ResumeFailure is a resume that sent nothing (concurrent-change,
// pending-expired, pending-incomplete: refused) or sent and was not
// verified (unverified, publish-failed, or any stop after this resume
// sent an event: unverified). The entry stays in the journal. It is the
// one failure type (failure.Failure: class, code, message, the commands
// to run next) with the resume's own facts.
type ResumeFailure struct {
	failure.Failure
	Resumed *Resumed
	// Changed are the preview's events that changed (concurrent-change).
	Changed  []string
	Problems []string
}

// resumeFailed is the ResumeFailure of class with code and msg.
func resumeFailed(class failure.Class, code string, r *Resumed, msg string, next []suggest.Command) *ResumeFailure {
	return &ResumeFailure{Failure: failure.Failure{Class: class, Code: code, Msg: msg, Next: next}, Resumed: r}
}

// Resume finishes the unfinished write w: it reruns the original recheck
// against the event ids the preview used (every announcement, kind 30618
// candidate and deletion; the write's own events are not a change), and
// only when none changed and every event some relay lacks is still inside
// the acceptance window, sends the same signed bytes to the relays that
// lack them, in the write's order, rechecking between events; then it
// verifies what the write awaited and removes the entry. Read must read
// the repository w names (w.First().Repo), made a write's, with the
// authors its preview used in reach; Relays, Now and, when set, Lock are
// used as by Run.
func (p Pipeline) Resume(ctx context.Context, w journal.Write) (*Resumed, error) {
	r := &Resumed{Write: w, Sent: map[string]*relaypool.Delivery{}}
	if !w.Complete() {
		return nil, resumeFailed(failure.Refused, KindPendingIncomplete, r,
			fmt.Sprintf("the journal holds %d of the write's events, not all of them; nothing was sent", len(w.Entries)),
			[]suggest.Command{suggest.Roster("pending", "discard", short(w.ID)).Because("forget the incomplete write")})
	}
	if p.Lock != nil {
		unlock, err := p.Lock(ctx, lockAddress(w))
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	v, err := p.discover(ctx)
	if err != nil {
		return nil, err
	}
	ids := w.EventIDs()
	if v.Fetch != nil {
		// Ask by id too: which relays hold each event, whatever the
		// discovery filters return.
		if v2, err := p.again(ctx, v, nostr.Filter{IDs: ids}); err == nil {
			v = v2
		} else {
			return nil, err
		}
	}
	// Which relays hold each event is what they return now: a relay that
	// acknowledged the event may not keep it.
	r.Holding = held(w, sources(v))
	if err := resumeRecheck(r, v); err != nil {
		return nil, err
	}
	now := p.Now()
	for _, e := range w.Entries {
		if len(lacking(e, r.Holding)) > 0 && journal.Expired(e.Event, now) {
			return nil, resumeFailed(failure.Refused, KindPendingExpired, r,
				fmt.Sprintf("the event %s was signed at %s, more than %v ago, and relays refuse events that late; nothing was sent. %s",
					e.Event.ID, e.Event.CreatedAt.Time().UTC().Format("2006-01-02 15:04:05 UTC"), journal.AcceptanceWindow, heldWords(r)),
				rerunCommands(w))
		}
	}
	for i, e := range w.Entries {
		missing := lacking(e, r.Holding)
		if len(missing) > 0 {
			d := p.Relays.Deliver(ctx, missing, e.Event, relaypool.DeliverOptions{Answered: track.Kept(p.Journal, w.ID).Answered(e.Seq)})
			r.Sent[e.Event.ID] = d
			if problems := d.Problems(); d.Accepted == 0 || len(problems) > 0 {
				kind := KindUnverified
				if d.Accepted == 0 {
					kind = KindPublishFailed
				}
				f := resumeFailed(failure.Unverified, kind, r,
					fmt.Sprintf("sent the event %s again to %s, but not every relay accepted and returned it; the write stays unfinished", e.Event.ID, strings.Join(missing, ", ")),
					PendingCommands(w.ID))
				f.Problems = problems
				return nil, f
			}
		}
		if i < len(w.Entries)-1 {
			// The intermediate recheck: the next event is sent only when
			// nothing changed since.
			next, err := p.again(ctx, v)
			if err != nil {
				return nil, sentThen(r, w.ID, err)
			}
			if err := resumeRecheck(r, next); err != nil {
				return nil, sentThen(r, w.ID, err)
			}
			v = next
		}
	}
	after, err := p.again(ctx, v, nostr.Filter{IDs: ids})
	if err != nil {
		// The events were sent: say what was stored, not the read's
		// "nothing was published".
		return nil, sentThen(r, w.ID, err)
	}
	r.After = after
	if problems := resumeVerify(w, after); len(problems) > 0 {
		f := resumeFailed(failure.Unverified, KindUnverified, r,
			"every relay was sent the write's events, but verification did not complete: "+strings.Join(problems, "; "),
			append([]suggest.Command{suggest.Roster("repo").Because("see what the relays now resolve")}, PendingCommands(w.ID)...))
		f.Problems = problems
		return nil, f
	}
	r.Verified = true
	if p.Journal != nil {
		_ = p.Journal.Finish(w.ID)
	}
	return r, nil
}

// lockAddress is the address Run locks for the write: the announcement's
// when it has one, else its first event's.
func lockAddress(w journal.Write) string {
	for _, e := range w.Entries {
		if e.Event.Kind == graph.KindAnnouncement {
			return e.Address
		}
	}
	return w.First().Address
}

// held maps each event of w to the relays in sources that returned it.
func held(w journal.Write, sources map[string][]string) map[string][]string {
	out := map[string][]string{}
	for _, e := range w.Entries {
		out[e.Event.ID] = append([]string{}, sources[e.Event.ID]...)
	}
	return out
}

func sources(v *discovery.View) map[string][]string {
	if v == nil || v.Fetch == nil {
		return nil
	}
	return v.Fetch.Sources
}

// lacking are the relays e must reach that are not known to hold it.
func lacking(e journal.Entry, holding map[string][]string) []string {
	var out []string
	for _, u := range relaypool.NormalizeRelays(e.Relays) {
		if !slices.Contains(holding[e.Event.ID], u) {
			out = append(out, u)
		}
	}
	return out
}

// resumeRecheck compares the fresh read with the preview's fingerprint:
// a key whose event is now one of the write's own is unchanged; any other
// difference among the authors the repository reaches is a concurrent
// change, and nothing is sent.
func resumeRecheck(r *Resumed, v *discovery.View) error {
	w := r.Write
	own := map[string]bool{}
	author := ""
	for _, e := range w.Entries {
		own[e.Event.ID] = true
		author = e.Event.PubKey
	}
	stored := w.Entries[len(w.Entries)-1].Preview
	events := discovery.InScope(v.Events, v.Coordinate().Identifier)
	fresh := preflight.Fingerprint(events)
	if w.First().Pipeline == journal.PipelineAnnounce {
		// repo init read only the author's own announcement.
		k := fmt.Sprintf("%d:%s", graph.KindAnnouncement, author)
		only := map[string]string{}
		if id, ok := fresh[k]; ok {
			only[k] = id
		}
		fresh = only
	}
	reach := map[string]bool{v.Coordinate().Pubkey: true, author: true}
	for _, pk := range graph.Reachable(events, v.Coordinate(), author) {
		reach[pk] = true
	}
	for k := range stored {
		kind, pk, _ := strings.Cut(k, ":")
		if kind != "5" {
			reach[pk] = true
		}
	}
	deleter := map[string]string{}
	for _, e := range events {
		if e.Kind == nostr.KindDeletion {
			deleter[e.ID] = e.PubKey
		}
	}
	var changed []string
	for _, k := range preflight.FingerprintChanges(stored, fresh) {
		if own[fresh[k]] {
			continue
		}
		kind, pk, _ := strings.Cut(k, ":")
		if _, was := stored[k]; !was {
			if kind == "5" {
				pk = deleter[pk]
			}
			if !reach[pk] {
				continue
			}
		}
		changed = append(changed, k)
	}
	if len(changed) == 0 {
		return nil
	}
	words := preflight.DescribeFingerprintKeys(changed)
	f := resumeFailed(failure.Refused, KindConcurrentChange, r,
		fmt.Sprintf("the repository changed after the unfinished write's preview (%s); nothing was sent. %s Rerun the command to preview the current state: it orders after the partial write",
			changedSummary(words), heldWords(r)),
		rerunCommands(w))
	f.Changed = words
	return f
}

// heldWords says which relays already hold the write's events.
func heldWords(r *Resumed) string {
	var parts []string
	for _, e := range r.Write.Entries {
		h := r.Holding[e.Event.ID]
		if len(h) == 0 {
			parts = append(parts, fmt.Sprintf("no relay holds %s", e.Event.ID))
		} else {
			parts = append(parts, fmt.Sprintf("%s is held by %s", e.Event.ID, strings.Join(h, ", ")))
		}
	}
	return strings.Join(parts, "; ") + "."
}

// rerunCommands are the intent run afresh (a new preview, signed after the
// partial write) and the discard of the unfinished write.
func rerunCommands(w journal.Write) []suggest.Command {
	// The selectors (--repo, --relay) are the resume's own, which name the
	// write's repository and relays.
	return []suggest.Command{
		suggest.Roster(w.First().Command...).Because("preview the repository as it is now and apply the change again"),
		suggest.Roster("pending", "discard", short(w.ID)).Because("then forget the unfinished write"),
	}
}

// resumeVerify is the verification the write awaited: every relay holds
// each event as the latest version of its address, and the repository
// resolves as the preview showed (lead, members, moderators, state).
func resumeVerify(w journal.Write, after *discovery.View) []string {
	var problems []string
	for _, e := range w.Entries {
		if after.Fetch == nil {
			// A comparison that could not be made is a failure, never a
			// pass: without the relays' answers nothing says they hold it.
			problems = append(problems, fmt.Sprintf("the re-read carries no relay's answer, so whether %s holds %s could not be checked",
				strings.Join(relaypool.NormalizeRelays(e.Relays), ", "), e.Event.ID))
			continue
		}
		for _, u := range relaypool.NormalizeRelays(e.Relays) {
			if !slices.Contains(after.Fetch.Sources[e.Event.ID], u) {
				problems = append(problems, fmt.Sprintf("%s does not return %s", u, e.Event.ID))
				continue
			}
			if l := relaypool.LatestOn(after.Fetch, u, e.Event); l != nil && l.ID != e.Event.ID && graph.Newer(l, e.Event) {
				problems = append(problems, fmt.Sprintf("%s keeps the newer %s instead of %s", u, l.ID, e.Event.ID))
			}
		}
	}
	want := w.Entries[len(w.Entries)-1].Verify
	got := after.Resolution
	if w.First().Pipeline == journal.PipelineMembership {
		if got.Lead != want.Lead || string(got.LeadSource) != want.LeadSource {
			problems = append(problems, fmt.Sprintf("lead resolved to %s (%s), the preview said %s (%s)",
				dash(graph.Npub(got.Lead)), got.LeadSource, dash(graph.Npub(want.Lead)), want.LeadSource))
		}
		if !slices.Equal(memberWords(got.Maintainers), want.Maintainers) {
			problems = append(problems, "the maintainers resolved differ from the preview")
		}
		if !slices.Equal(memberWords(got.Moderators), want.Moderators) {
			problems = append(problems, "the moderators resolved differ from the preview")
		}
	}
	if want.State != "" && (after.StateEvent == nil || after.StateEvent.ID != want.State) {
		problems = append(problems, "the repository does not resolve the state event "+want.State)
	}
	return problems
}

// sentThen is a failure of the intermediate recheck once this resume has
// sent an event: not "nothing was sent" but what was sent and that the
// rest was not, the write still unfinished (the command exits 6 when
// Resumed.Sent is not empty). The holdings read before sending are out of
// date by then, so they are not repeated.
func sentThen(r *Resumed, write string, err error) error {
	if len(r.Sent) == 0 {
		return err
	}
	var sent []string
	for id, d := range r.Sent {
		sent = append(sent, fmt.Sprintf("the event %s to %d relay(s)", id, d.Accepted))
	}
	sort.Strings(sent)
	done := "this resume sent " + strings.Join(sent, ", ") + "; "
	var rf *ResumeFailure
	if errors.As(err, &rf) {
		out := *rf
		// Something was sent before the stop: not a refusal.
		out.Class = failure.Unverified
		if why, _, ok := strings.Cut(rf.Msg, "; nothing was sent."); ok {
			out.Msg = done + "then " + why + ", so the next event was not sent. Rerun the command to preview the current state: it orders after the partial write"
		} else {
			out.Msg = done + "then " + rf.Msg
		}
		return &out
	}
	return resumeFailed(failure.Unverified, KindUnverified, r,
		done+"then the recheck before the next event failed ("+discovery.Why(err)+"), so it was not sent; the write stays unfinished",
		PendingCommands(write))
}
