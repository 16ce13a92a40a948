package eventcheck

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// incomplete is the check of ref stopped for want of evidence: details
// name the event and, when it was asked, what each relay answered; the
// way out is asking a relay that holds it.
func incomplete(ref Ref, reason string, v *Verdict, res *relaypool.FetchResult) *Incomplete {
	details := map[string]any{"event": ref.ID}
	if res != nil {
		rel := []map[string]any{}
		for _, r := range res.Relays {
			rel = append(rel, map[string]any{"url": r.URL, "status": r.Status, "reason": r.Reason, "events": r.Events})
		}
		details["relays"] = rel
	}
	return &Incomplete{Failure: failure.Failure{Class: failure.Incomplete, Code: "incomplete", Msg: reason, Details: details,
		Next: []suggest.Command{suggest.Roster("repo", "check-event", ref.ID).With("--relay", "wss://<relay holding it>").Because("ask a relay that holds the event")}},
		Verdict: v, Fetch: res}
}

func notAnAction(ref Ref, evt *nostr.Event) *NotAnAction {
	return &NotAnAction{Event: evt, Failure: failure.Failure{Class: failure.Usage, Code: "usage",
		Msg:     fmt.Sprintf("event %s is kind %d, not a status (1630-1633), a #t or #subject label (1985), a cover note (1624) or repository state (30618)", evt.ID, evt.Kind),
		Details: map[string]any{"event": ref.ID, "kind": evt.Kind}}}
}

func needsRepository(ref Ref, evt *nostr.Event) *NeedsRepository {
	return &NeedsRepository{Event: evt, Failure: failure.Failure{Class: failure.Usage, Code: "no-coordinate",
		Msg:     fmt.Sprintf("event %s is repository state (kind 30618), which names its repository only by identifier %q: say which repository to check it against with --repo", evt.ID, evt.Tags.GetD()),
		Details: map[string]any{"event": ref.ID, "identifier": evt.Tags.GetD()},
		Next:    []suggest.Command{suggest.Roster("repo", "check-event", ref.ID).With("--repo", "<naddr|nostr://npub/identifier>")}}}
}
