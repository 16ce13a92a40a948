package grouprelay

import (
	"context"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
)

// maxPrevious bounds the timeline references one event may carry.
const maxPrevious = 50

// checkPrevious enforces nip-29.md "Timeline references": a moderation event
// may carry `previous` tags, each the first 8 hex characters of an event of
// the group this relay stores; a reference to anything else is refused, so
// an event made for a fork elsewhere is not taken out of context here.
// Without previous tags nothing is checked.
func (a *Authority) checkPrevious(env devrelay.Env, evt *nostr.Event, id string) error {
	var refs []string
	for _, t := range evt.Tags {
		if len(t) >= 2 && t[0] == "previous" {
			refs = append(refs, t[1:]...)
		}
	}
	if len(refs) == 0 {
		return nil
	}
	if len(refs) > maxPrevious {
		return fmt.Errorf("invalid: at most %d previous references", maxPrevious)
	}
	if env.Query == nil {
		return fmt.Errorf("error: this relay cannot check previous references")
	}
	stored := env.Query(context.Background(), nostr.Filter{Tags: nostr.TagMap{"h": {id}}})
	for _, ref := range refs {
		if len(ref) != 8 || strings.Trim(ref, "0123456789abcdef") != "" {
			return fmt.Errorf("invalid: previous reference %q is not 8 lowercase hex characters", ref)
		}
		found := false
		for _, e := range stored {
			if strings.HasPrefix(e.ID, ref) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("invalid: previous reference %s names no event of group %s on this relay", ref, id)
		}
	}
	return nil
}

// deleteEvent applies a 9005: each `e` tag must name an event of this group
// (its `h` tag) that the relay stores; the relay removes them and refuses
// them if they are published again. Group state (39000-39003) and the
// moderation events membership is read from cannot be deleted this way.
func (a *Authority) deleteEvent(env devrelay.Env, evt *nostr.Event, g *group) ([]*nostr.Event, error) {
	var ids []string
	for _, t := range evt.Tags {
		if len(t) >= 2 && t[0] == "e" {
			if !nostr.IsValid32ByteHex(t[1]) {
				return nil, fmt.Errorf("invalid: delete-event's e tag %q is not a 64-hex event id", t[1])
			}
			ids = append(ids, t[1])
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("invalid: delete-event needs an e tag with the event id")
	}
	if env.Query == nil || env.Delete == nil {
		return nil, fmt.Errorf("error: this relay cannot delete events")
	}
	for _, eid := range ids {
		found := env.Query(context.Background(), nostr.Filter{IDs: []string{eid}})
		if len(found) == 0 {
			return nil, fmt.Errorf("invalid: event %s is not stored on this relay", eid)
		}
		target := found[0]
		if tagValue(target.Tags, "h") != g.id {
			return nil, fmt.Errorf("invalid: event %s is not in group %s (its h tag)", eid, g.id)
		}
		if target.Kind >= KindPutUser && target.Kind <= 9020 {
			return nil, fmt.Errorf("invalid: event %s is a moderation event (kind %d), which the group's state is reconstructed from; it cannot be deleted", eid, target.Kind)
		}
	}
	for _, eid := range ids {
		env.Delete(eid)
	}
	return a.emit(env, evt, g)
}
