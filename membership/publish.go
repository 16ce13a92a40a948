package membership

import (
	"context"
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// publish signs, publishes to every relay asked, reads the event back from
// each, and re-resolves the repository to check it equals the preview.
// Failures after the first relay accepted the event are Unverified.
func (p Pipeline) publish(ctx context.Context, out *Outcome, evt *nostr.Event) error {
	if err := p.Signer.SignEvent(ctx, evt); err != nil {
		return &SignerError{Err: err}
	}
	if evt.PubKey != out.Plan.Author {
		return &Failure{Kind: KindSignerMismatch, Outcome: out,
			Message: "the signer signed with a different key than the preview used; nothing was published"}
	}
	d := p.Deliver(ctx, out.Before.Relays, evt, relaypool.DeliverOptions{BeforeReadBack: p.AfterPublish})
	out.Delivery = d
	if d.Accepted == 0 {
		return &Failure{Kind: KindPublishFailed, Outcome: out,
			Message: fmt.Sprintf("no relay accepted the replacement announcement %s; nothing was published", evt.ID)}
	}
	out.Published = append(out.Published, evt.ID)
	problems := d.Problems()
	if len(problems) == 0 {
		after, err := p.Discover(ctx)
		if err != nil {
			problems = append(problems, "re-reading the repository failed: "+err.Error())
		} else {
			// Resolve with what the read-back returned by id too: a relay
			// may answer the repeated discovery filter from a cache.
			if d.ReadBack != nil {
				after = after.Including(d.ReadBack.Events)
			}
			problems = append(problems, DiffersFromPreview(out.Plan.After, after.Resolution)...)
			out.After = after
		}
	}
	if len(problems) > 0 {
		return &Failure{Kind: KindUnverified, Outcome: out, Problems: problems,
			Message: fmt.Sprintf("published %s, but verification did not complete", evt.ID)}
	}
	out.Verified = true
	return nil
}

// DiffersFromPreview compares the re-resolved repository with the preview's
// simulated one: lead, lead source, and every maintainer's and moderator's
// status.
func DiffersFromPreview(want, got *graph.Resolution) []string {
	var out []string
	if want.Lead != got.Lead || want.LeadSource != got.LeadSource {
		out = append(out, fmt.Sprintf("lead resolved to %s (%s), the preview said %s (%s)",
			dash(graph.Npub(got.Lead)), got.LeadSource, dash(graph.Npub(want.Lead)), want.LeadSource))
	}
	if !slices.Equal(want.Maintainers, got.Maintainers) {
		out = append(out, "the maintainers resolved differ from the preview")
	}
	if !slices.Equal(want.Moderators, got.Moderators) {
		out = append(out, "the moderators resolved differ from the preview")
	}
	return out
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
