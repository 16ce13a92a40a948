package devrelay

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
)

// DemoIssue is the demo's issue and two statuses on it, for `roster repo
// check-event`: one by the lead (authorized) and one by dave, published
// after alice removed him (not authorized).
type DemoIssue struct {
	// ID is the issue's (kind 1621) event id, by carol.
	ID string `json:"id"`
	// ByMaintainer is alice's status (kind 1630, open) as a nevent with
	// the relay as hint; ByRemoved dave's (kind 1632, closed), sent after
	// his removal.
	ByMaintainer string `json:"status_by_maintainer"`
	ByRemoved    string `json:"status_by_removed_maintainer"`
}

// seedIssue publishes carol's issue (12 days ago), alice's status on it
// (11 days ago, while she leads) and dave's (5 days ago, five days after
// alice removed him), each naming the demo repository in its a tag.
func seedIssue(r *Relay, t0, day int64, info *DemoInfo, pk map[string]string) error {
	a := nostr.Tag{"a", "30617:" + pk["alice"] + ":" + DemoIdentifier, r.URL()}
	sign := func(name string, kind int, at int64, tags ...nostr.Tag) (*nostr.Event, error) {
		evt := &nostr.Event{Kind: kind, CreatedAt: nostr.Timestamp(at), Tags: tags}
		if err := evt.Sign(DemoKey(name)); err != nil {
			return nil, err
		}
		if err := r.Publish(evt); err != nil {
			return nil, fmt.Errorf("seeding the demo issue: %w", err)
		}
		info.Events = append(info.Events, evt)
		return evt, nil
	}
	issue, err := sign("carol", 1621, t0-12*day, a, nostr.Tag{"p", pk["alice"]}, nostr.Tag{"subject", "roster repo should say who leads"})
	if err != nil {
		return err
	}
	root := nostr.Tag{"e", issue.ID, r.URL(), "root"}
	open, err := sign("alice", 1630, t0-11*day, a, root, nostr.Tag{"p", pk["carol"]})
	if err != nil {
		return err
	}
	closed, err := sign("dave", 1632, t0-5*day, a, root, nostr.Tag{"p", pk["carol"]})
	if err != nil {
		return err
	}
	info.Issue.ID = issue.ID
	if info.Issue.ByMaintainer, err = nip19.EncodeEvent(open.ID, []string{r.URL()}, open.PubKey); err != nil {
		return err
	}
	info.Issue.ByRemoved, err = nip19.EncodeEvent(closed.ID, []string{r.URL()}, closed.PubKey)
	return err
}
