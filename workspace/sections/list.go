package sections

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// Listed is one workspace whose projection names the signer as a reader.
type Listed struct {
	Owner          string
	Role           Role // the signer's role (RoleReader when the relay does not say)
	Revision       int64
	LayoutRevision int64
	KeyEpoch       int64
	EventID        string
}

// ListResult is every workspace on the relay that names the signer.
type ListResult struct {
	Workspaces []Listed
	// Rejected are projections that named the signer but failed
	// verification: never listed.
	Rejected []string
}

// List asks the relay, over the session's authenticated connection, for
// every workspace projection signed by its self with a p tag naming the
// signer (the relay delivers each reader only the workspaces they may read)
// and verifies each as its owner's projection. NIP-PC Project States share
// kind 30623 and are skipped. Anything short of a complete answer is a
// *pipeline.Error.
func (s *Session) List(ctx context.Context) (*ListResult, error) {
	if s.Offline {
		return nil, &pipeline.Error{Class: pipeline.Usage, Code: "usage", Msg: "`workspace list` asks the relay; drop --offline"}
	}
	if s.infoErr != nil {
		return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "incomplete", Err: s.infoErr,
			Msg: fmt.Sprintf("%s: its NIP-11 self cannot be read, so no projection can be verified: %v", s.Relay, s.infoErr)}
	}
	f := nostr.Filter{Kinds: []int{KindProjection}, Authors: []string{s.Self}, Tags: nostr.TagMap{"p": {s.Me}}}
	res := s.Relays.Fetch(ctx, []string{s.Relay}, f)
	if !res.Complete {
		r := res.Relays[0]
		return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "incomplete",
			Msg:     fmt.Sprintf("%s did not answer (%s), so roster cannot list your workspaces", s.Relay, pipeline.Outcome(r.Status, r.Reason)),
			Details: map[string]any{"relay": s.Relay, "status": r.Status, "reason": r.Reason},
			Next:    []suggest.Command{retryOn(suggest.Roster("workspace", "list", "--relay", s.Relay), r.Status)}}
	}
	out := &ListResult{Workspaces: []Listed{}, Rejected: []string{}}
	best := map[string]Listed{}
	for _, evt := range res.Events {
		if isProjectState(evt) {
			continue
		}
		// d=<owner>, or Buzz's d=<owner>:<reader>.
		owner, _, _ := strings.Cut(evt.Tags.GetD(), ":")
		v, err := VerifyProjectionFor(evt, s.Self, owner, s.Me)
		if err != nil {
			out.Rejected = append(out.Rejected, fmt.Sprintf("event %s: %v", evt.ID, err))
			continue
		}
		role, ok := v.Readers[s.Me]
		if !ok {
			continue
		}
		p := v.Projection
		l := Listed{Owner: owner, Role: role, Revision: p.Revision, LayoutRevision: p.LayoutRevision, KeyEpoch: p.KeyEpoch, EventID: evt.ID}
		if cur, seen := best[owner]; !seen || l.Revision > cur.Revision {
			best[owner] = l
		}
	}
	for _, l := range best {
		out.Workspaces = append(out.Workspaces, l)
	}
	sort.Slice(out.Workspaces, func(i, j int) bool {
		a, b := out.Workspaces[i], out.Workspaces[j]
		if (a.Owner == s.Me) != (b.Owner == s.Me) {
			return a.Owner == s.Me // your own first
		}
		return a.Owner < b.Owner
	})
	return out, nil
}

// isProjectState recognizes a NIP-PC Project State (a and rev tags), which
// shares kind 30623 with workspace projections.
func isProjectState(evt *nostr.Event) bool {
	for _, t := range evt.Tags {
		if len(t) > 0 && (t[0] == "a" || t[0] == "rev") {
			return true
		}
	}
	return false
}

// retryOn is c to retry once the relay is back, with a longer --timeout
// only when the relay timed out (it does not help one that refused).
func retryOn(c suggest.Command, status string) suggest.Command {
	if status == relaypool.StatusTimeout {
		c = c.With("--timeout", "30s")
	}
	return c.Because("retry once the relay is back")
}
