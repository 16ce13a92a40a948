package grouprelay

import (
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/workspace/projects"
)

// editMetadata applies a 9002: the metadata, and the parent and child
// order (the rules are in the package comment).
func (a *Authority) editMetadata(env devrelay.Env, evt *nostr.Event, key groupKey, g *group, meta [][]string, master bool) ([]*nostr.Event, error) {
	var parents, children []string
	for _, t := range evt.Tags {
		if len(t) >= 2 && t[0] == "parent" {
			parents = append(parents, t[1])
		}
		if len(t) >= 2 && t[0] == "child" {
			children = append(children, t[1])
		}
	}
	if len(parents) > 1 {
		return nil, fmt.Errorf("invalid: a 9002 may carry at most one parent tag")
	}
	if !sameSet(children, g.children) {
		return nil, fmt.Errorf("invalid: group %s's metadata edit must list all of its %d children as child tags", g.id, len(g.children))
	}
	newParent := ""
	var np *group
	if len(parents) == 1 {
		newParent = parents[0]
		np = a.groups[groupKey{key.community, newParent}]
		if np == nil || np.deleted {
			return nil, fmt.Errorf("invalid: parent group %s does not exist on this relay", newParent)
		}
		if !master && !np.has(evt.PubKey, projects.RoleOwner) && !np.has(evt.PubKey, projects.RoleAdmin) {
			return nil, fmt.Errorf("restricted: only an admin of group %s may make it a parent", newParent)
		}
		for p := np; p != nil; p = a.groups[groupKey{key.community, p.parent}] {
			if p == g {
				return nil, fmt.Errorf("invalid: parent %s would make a cycle", newParent)
			}
			if p.parent == "" {
				break
			}
		}
	}
	g.meta, g.children = meta, children
	oldParent := g.parent
	g.parent = newParent
	out, err := a.emit(env, evt, g)
	if err != nil || newParent == oldParent {
		return out, err
	}
	if old := a.groups[groupKey{key.community, oldParent}]; old != nil && oldParent != "" {
		old.children = slices.DeleteFunc(old.children, func(c string) bool { return c == g.id })
		if out, err = a.reemit(env, out, old); err != nil {
			return nil, err
		}
	}
	if np != nil {
		np.children = append(np.children, g.id)
		if out, err = a.reemit(env, out, np); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// deleteGroup applies a 9008: the group's children become roots, and its
// parent no longer lists it.
func (a *Authority) deleteGroup(env devrelay.Env, evt *nostr.Event, key groupKey, g *group) ([]*nostr.Event, error) {
	g.drop()
	out, err := a.emit(env, evt, g)
	if err != nil {
		return nil, err
	}
	if p := a.groups[groupKey{key.community, g.parent}]; p != nil && g.parent != "" {
		p.children = slices.DeleteFunc(p.children, func(c string) bool { return c == g.id })
		if out, err = a.reemit(env, out, p); err != nil {
			return nil, err
		}
	}
	for _, c := range g.children {
		if child := a.groups[groupKey{key.community, c}]; child != nil {
			child.parent = ""
			if out, err = a.reemit(env, out, child); err != nil {
				return nil, err
			}
		}
	}
	g.parent, g.children = "", nil
	return out, nil
}

// reemit appends g's re-signed state (without a command) to out.
func (a *Authority) reemit(env devrelay.Env, out []*nostr.Event, g *group) ([]*nostr.Event, error) {
	more, err := a.emit(env, nil, g)
	if err != nil {
		return nil, err
	}
	return append(out, more[1:]...), nil
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}
