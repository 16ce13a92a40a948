package membership

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/actions"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// newRoleActions are the role-scoped events (statuses, labels, cover
// notes) of the component's authors that the recheck's answer holds and
// the preview did not compare: one dated before the change could be one it
// newly authorizes, which preflight never saw, so it is a concurrent
// change like an announcement that changed. Described as people say them.
func newRoleActions(out *Outcome, res *relaypool.FetchResult) []string {
	compared := map[string]bool{}
	for _, e := range out.Before.Actions {
		compared[e.ID] = true
	}
	sel := out.Before.Coordinate()
	seeds := []string{out.Plan.Author, out.Intent.Subject, out.Intent.Lead}
	member := map[string]bool{}
	for _, pk := range graph.Reachable(res.Events, sel, seeds...) {
		member[pk] = true
	}
	var changed []string
	for _, e := range res.Events {
		if _, ok := actions.ActionOf(e); !ok || compared[e.ID] || !member[e.PubKey] || !namesComponent(e, sel.Identifier, member) {
			continue
		}
		changed = append(changed, "role-scoped event "+e.ID+" of "+graph.Npub(e.PubKey))
	}
	return changed
}

// namesComponent reports whether e's `a` tag names a coordinate of one of
// member under identifier.
func namesComponent(e *nostr.Event, identifier string, member map[string]bool) bool {
	for _, c := range actions.RepositoryRefs(e) {
		if c.Identifier == identifier && member[c.Pubkey] {
			return true
		}
	}
	return false
}

func roleActionsChanged(out *Outcome, changed []string) *Failure {
	return &Failure{Failure: failure.Failure{Code: KindConcurrentChange, Class: failure.Refused, Msg: "the repository changed after the preview (" + changedSummary(changed) +
		"); nothing was published: rerun the command to preview the current state"}, Outcome: out, Changed: changed}
}
