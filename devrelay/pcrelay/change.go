package pcrelay

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/workspace/projects"
)

// change applies a kind 47010 command: authenticated signer, strict shape,
// authority, expected revision, then the whole patch and one revision.
func (a *Authority) change(env devrelay.Env, authed string, evt *nostr.Event) ([]*nostr.Event, error) {
	accepted := env.Community + "\x00" + evt.ID
	if a.accepted[accepted] {
		return nil, nil // replaying the exact accepted command is idempotent
	}
	if authed == "" {
		return nil, fmt.Errorf("auth-required: a project change needs a NIP-42 authenticated connection")
	}
	if authed != evt.PubKey {
		return nil, fmt.Errorf("restricted: authenticated as %s but the change is signed by %s", authed, evt.PubKey)
	}
	c, expected, patch, err := projects.DecodeChange(evt)
	if err != nil {
		return nil, fmt.Errorf("invalid: %v", err)
	}
	k := key(env, c)
	r := a.rows[k]
	if r == nil {
		return nil, fmt.Errorf("invalid: project %s is not known on this relay; its owner must publish its kind 30621 identity first", c)
	}
	home := r.doc.HomeChannel
	var standing projects.ChannelStanding
	if home != "" && a.opts.Groups != nil {
		standing = a.opts.Groups.Standing(env.Community, home, evt.PubKey)
	}
	if err := projects.Authorize(evt.PubKey, c.Owner, home, standing); err != nil {
		return nil, fmt.Errorf("restricted: %v", err)
	}
	if expected != r.revision {
		return nil, fmt.Errorf("conflict: project %s is at revision %d, not the expected %d; re-read its kind 30623 state and sign a fresh change", c, r.revision, expected)
	}
	cur := r.doc
	cur.RelatedChannels = r.related
	if err := patch.Check(r.deleted, cur); err != nil {
		return nil, fmt.Errorf("invalid: %v", err)
	}
	if err := r.advance(); err != nil {
		return nil, err
	}
	next := *r
	next.revision++
	next.related = patch.Apply(r.related)
	next.change = evt.ID
	proj, err := a.project(env, &next)
	if err != nil {
		return nil, err
	}
	a.rows[k] = &next
	a.accepted[accepted] = true
	return []*nostr.Event{evt, proj}, nil
}
