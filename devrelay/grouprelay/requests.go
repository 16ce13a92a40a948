package grouprelay

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/workspace/projects"
)

// join handles a 9021 (the policy is in the package comment).
func (a *Authority) join(env devrelay.Env, evt *nostr.Event, g *group) ([]*nostr.Event, error) {
	who := evt.PubKey
	if _, member := g.members[who]; member {
		return nil, fmt.Errorf("duplicate: %s is already a member of group %s", who, g.id)
	}
	code := tagValue(evt.Tags, "code")
	used, known := g.invites[code]
	switch {
	case code != "" && !known:
		return nil, fmt.Errorf("restricted: the invite code is not valid for group %s; ask an admin for a new one", g.id)
	case code != "" && used:
		return nil, fmt.Errorf("restricted: the invite code was already used to join group %s (a code admits one person); ask an admin for a new one", g.id)
	case code == "" && g.closed():
		// Kept for a moderator to answer with a 9000: accepted, not admitted.
		return []*nostr.Event{evt}, nil
	}
	if code != "" {
		g.invites[code] = true
	}
	g.put(who, nil)
	return a.transition(env, evt, g, KindPutUser, who)
}

// leave handles a 9022.
func (a *Authority) leave(env devrelay.Env, evt *nostr.Event, g *group) ([]*nostr.Event, error) {
	who := evt.PubKey
	if _, member := g.members[who]; !member {
		return nil, fmt.Errorf("invalid: %s is not a member of group %s", who, g.id)
	}
	if g.has(who, projects.RoleOwner) && g.owners() == 1 {
		return nil, fmt.Errorf("restricted: the last owner of group %s cannot leave it; give another member the owner role first", g.id)
	}
	g.remove(who)
	return a.transition(env, evt, g, KindRemoveUser, who)
}

// transition emits the request, the relay-signed 9000 or 9001 it caused,
// dated after the person's previous membership change so that it is the
// latest, and the regenerated state.
func (a *Authority) transition(env devrelay.Env, req *nostr.Event, g *group, kind int, who string) ([]*nostr.Event, error) {
	at := env.Now()
	if prev, ok := g.lastChange[who]; ok && at <= prev {
		at = prev + 1
	}
	mod := &nostr.Event{Kind: kind, CreatedAt: at, Tags: nostr.Tags{{"h", g.id}, {"p", who}}}
	if err := env.Sign(mod); err != nil {
		return nil, fmt.Errorf("error: signing the membership change: %w", err)
	}
	g.changed(who, at)
	out, err := a.emit(env, req, g)
	if err != nil {
		return nil, err
	}
	return append([]*nostr.Event{out[0], mod}, out[1:]...), nil
}

func (g *group) changed(pubkey string, at nostr.Timestamp) {
	if at > g.lastChange[pubkey] {
		g.lastChange[pubkey] = at
	}
}

func (g *group) closed() bool {
	for _, t := range g.meta {
		if t[0] == "closed" {
			return true
		}
	}
	return false
}

func (g *group) owners() int {
	n := 0
	for p := range g.members {
		if g.has(p, projects.RoleOwner) {
			n++
		}
	}
	return n
}
