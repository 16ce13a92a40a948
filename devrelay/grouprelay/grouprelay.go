// Package grouprelay is a minimal reference NIP-29 moderation authority for
// devrelay: 9007 create-group, 9000 put-user (with roles), 9001 remove-user,
// 9002 edit-metadata, 9005 delete-event, 9008 delete-group and 9009
// create-invite, the users' 9021 join and 9022 leave requests, producing
// relay-signed 39000 metadata, 39001 admins, 39002 members and 39003 roles,
// and a relay-signed 9000 or 9001 for every membership change a request
// makes. Its groups are the relay's channel table (ChannelExists, for
// NIP-SW), and it is the home-channel role source for the NIP-PC authority
// (devrelay/pcrelay).
//
// Policy (NIP-29 leaves it to the relay; policy.go, advertised in 39003 with
// descriptions): the relay key may do anything; an `owner` everything an
// admin may, plus granting or taking the `owner` role, removing an owner and
// deleting the group; an `admin` puts and removes non-owners, edits
// metadata, deletes events and creates invites; a `moderator` deletes
// events and creates invites. Other role names are kept and listed in
// 39001 but give nothing. A refusal names the kind, the roles that may send
// it and the sender's roles. A deleted group's id cannot be created again,
// and its state is replaced by a tombstone (39000 with a `deleted` tag,
// empty 39001 and 39002) so no cache can resurrect it. A moderation event
// may carry `previous` references; each must name a stored event of the
// group (nip-29.md "Timeline references"). A 9005 removes ordinary events
// of the group (never moderation events) and refuses them from then on.
//
// Join and leave (nip-29.md "User-related group management events"): a join
// to an open group, or to a closed one with a code a moderator created by
// 9009, makes the requester a member (a relay-signed 9000); a member's join
// is refused `duplicate:`; a join to a closed group without a code is stored
// and queued for a moderator's 9000 (the request is accepted, the person is
// not a member yet); an unknown code is refused `restricted:`. A code admits
// one person: a second join with it is refused `restricted:`, and a code is
// never issued twice (`duplicate:`). A leave removes the member (a
// relay-signed 9001); the group's last owner cannot leave (`restricted:`),
// and a non-member's leave is `invalid:`. Codes end when the group is
// deleted. Each relay-signed 9000/9001 is dated after the person's previous
// membership change, so the latest one decides.
//
// Subgroups (nip-29.md "Subgroups"): a 9002 with one `parent` tag makes the
// group a child of that group, if it exists, the sender is its admin (owner
// or admin there, or the relay) and no cycle results; a 9002 without one
// makes it a root. The parents' 39000s are re-signed with their ordered
// `child` tags; a 9002 to a group with children must list them all as
// `child` tags (in the order wanted). A deleted parent's children become
// roots. The relay advertises `nip29.subgroups` in NIP-11 only if devrelay
// does.
package grouprelay

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/projects"
)

// Moderation kinds handled (nip-29.md "Group state -- or moderation"), as
// workspace/groups declares them.
const (
	KindPutUser      = groups.KindPutUser
	KindRemoveUser   = groups.KindRemoveUser
	KindEditMetadata = groups.KindEditMetadata
	KindCreateGroup  = groups.KindCreateGroup
	KindDeleteGroup  = groups.KindDeleteGroup
	KindCreateInvite = groups.KindCreateInvite
	KindJoinRequest  = groups.KindJoinRequest
	KindLeaveRequest = groups.KindLeaveRequest
)

// Authority is the NIP-29 state machine. Create it with New.
type Authority struct {
	mu sync.Mutex
	// groups are keyed by community and id: a group belongs to the relay
	// that hosts it, and the same id elsewhere is another group (a fork).
	groups map[groupKey]*group
}

type groupKey struct{ community, id string }

type group struct {
	id       string
	meta     [][]string          // 9002 metadata tags, without d/h
	members  map[string][]string // pubkey -> roles (empty for plain members)
	order    []string            // members in the order they were first added
	deleted  bool
	lastSent map[int]nostr.Timestamp // created_at of the last 3900x per kind
	// invites are the 9009 codes, each true once a join has used it: a
	// code admits one person.
	invites map[string]bool
	// lastChange is the created_at of each person's latest 9000/9001.
	lastChange map[string]nostr.Timestamp
	// parent is the parent group's id ("" for a root); children the
	// ordered child ids (nip-29.md "Subgroups").
	parent   string
	children []string
}

// New returns an authority with no groups.
func New() *Authority { return &Authority{groups: map[groupKey]*group{}} }

var _ devrelay.Authority = (*Authority)(nil)

// Kinds are the moderation commands plus the relay-only state kinds, which
// clients may never submit.
func (a *Authority) Kinds() []int {
	return []int{KindPutUser, KindRemoveUser, KindEditMetadata, KindDeleteEvent, KindCreateGroup, KindDeleteGroup,
		KindCreateInvite, KindJoinRequest, KindLeaveRequest, groups.KindMetadata, groups.KindAdmins, groups.KindMembers, groups.KindRoles}
}

// View returns every event unchanged: this minimal relay has no private groups.
func (a *Authority) View(_ devrelay.Env, _ string, evt *nostr.Event) *nostr.Event { return evt }

// Standing reports what group id of community says about pubkey now:
// whether it is live and pubkey's roles. It implements pcrelay.HomeChannels.
func (a *Authority) Standing(community, id, pubkey string) projects.ChannelStanding {
	a.mu.Lock()
	defer a.mu.Unlock()
	g := a.groups[groupKey{community, id}]
	if g == nil || g.deleted || g.archived() {
		return projects.ChannelStanding{}
	}
	return projects.ChannelStanding{Live: true, Roles: append([]string(nil), g.members[pubkey]...)}
}

func (g *group) archived() bool {
	for _, t := range g.meta {
		// As Buzz and workspace/groups read it: only the value "true".
		if t[0] == "archived" && len(t) > 1 && t[1] == "true" {
			return true
		}
	}
	return false
}

func (g *group) has(pubkey, role string) bool {
	for _, r := range g.members[pubkey] {
		if r == role {
			return true
		}
	}
	return false
}

// Ingest applies one moderation command and returns it (to be stored, so the
// state can be reconstructed from the canonical sequence) followed by the
// regenerated relay-signed state events.
func (a *Authority) Ingest(_ context.Context, env devrelay.Env, _ string, evt *nostr.Event) ([]*nostr.Event, error) {
	if evt.Kind >= groups.KindMetadata && evt.Kind <= groups.KindRoles {
		return nil, fmt.Errorf("restricted: kind %d group state is generated and signed by the relay only", evt.Kind)
	}
	id := tagValue(evt.Tags, "h")
	if id == "" {
		return nil, fmt.Errorf("invalid: a moderation event needs an h tag with the group id")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	key := groupKey{env.Community, id}
	g := a.groups[key]
	master := evt.PubKey == env.Self
	if evt.Kind == KindCreateGroup {
		if g != nil {
			if g.deleted {
				return nil, fmt.Errorf("blocked: group %s was deleted and cannot be created again", id)
			}
			return nil, fmt.Errorf("duplicate: group %s already exists", id)
		}
		g = &group{id: id, members: map[string][]string{}, lastSent: map[int]nostr.Timestamp{},
			invites: map[string]bool{}, lastChange: map[string]nostr.Timestamp{}}
		if !master {
			g.put(evt.PubKey, []string{projects.RoleOwner})
		}
		a.groups[key] = g
		return a.emit(env, evt, g)
	}
	if g == nil || g.deleted {
		return nil, fmt.Errorf("invalid: group %s does not exist on this relay", id)
	}
	switch evt.Kind {
	case KindJoinRequest:
		return a.join(env, evt, g)
	case KindLeaveRequest:
		return a.leave(env, evt, g)
	}
	if ok, why := g.may(evt.PubKey, master, evt.Kind); !ok {
		return nil, fmt.Errorf("restricted: %s", why)
	}
	owner := master || g.has(evt.PubKey, projects.RoleOwner)
	if err := a.checkPrevious(env, evt, id); err != nil {
		return nil, err
	}
	switch evt.Kind {
	case KindPutUser:
		p := pTag(evt.Tags)
		if p == nil {
			return nil, fmt.Errorf("invalid: put-user needs a p tag with a 64-hex pubkey")
		}
		roles := sortedSet(p[2:])
		if !owner && (g.has(p[1], projects.RoleOwner) || slices.Contains(roles, projects.RoleOwner)) {
			return nil, fmt.Errorf("restricted: only an owner of group %s may grant or change the owner role", id)
		}
		g.put(p[1], roles)
		g.changed(p[1], evt.CreatedAt)
	case KindRemoveUser:
		p := pTag(evt.Tags)
		if p == nil {
			return nil, fmt.Errorf("invalid: remove-user needs a p tag with a 64-hex pubkey")
		}
		if !owner && g.has(p[1], projects.RoleOwner) {
			return nil, fmt.Errorf("restricted: only an owner of group %s may remove an owner", id)
		}
		g.remove(p[1])
		g.changed(p[1], evt.CreatedAt)
	case KindCreateInvite:
		code := tagValue(evt.Tags, "code")
		if code == "" {
			return nil, fmt.Errorf("invalid: create-invite needs a code tag")
		}
		if _, known := g.invites[code]; known {
			return nil, fmt.Errorf("duplicate: invite code %q already exists in group %s (codes are single-use and never reissued)", code, id)
		}
		g.invites[code] = false
	case KindDeleteEvent:
		return a.deleteEvent(env, evt, g)
	case KindEditMetadata:
		var meta [][]string
		for _, t := range evt.Tags {
			if len(t) == 0 || t[0] == "h" || t[0] == "d" || t[0] == "previous" || t[0] == "parent" || t[0] == "child" {
				continue
			}
			meta = append(meta, append([]string(nil), t...))
		}
		return a.editMetadata(env, evt, key, g, meta, master)
	case KindDeleteGroup:
		if !owner {
			return nil, fmt.Errorf("restricted: only an owner of group %s may delete it", id)
		}
		return a.deleteGroup(env, evt, key, g)
	}
	return a.emit(env, evt, g)
}

// drop empties a deleted group: no members, roles or invites remain.
func (g *group) drop() {
	g.deleted = true
	g.invites = map[string]bool{}
	g.members = map[string][]string{}
	g.order = nil
}

func (g *group) put(pubkey string, roles []string) {
	if _, ok := g.members[pubkey]; !ok {
		g.order = append(g.order, pubkey)
	}
	g.members[pubkey] = roles
}

func (g *group) remove(pubkey string) {
	delete(g.members, pubkey)
	for i, p := range g.order {
		if p == pubkey {
			g.order = append(g.order[:i:i], g.order[i+1:]...)
			break
		}
	}
}

// emit returns the command and the four regenerated state events, each with
// a created_at strictly after the previous version so that it replaces it.
func (a *Authority) emit(env devrelay.Env, cmd *nostr.Event, g *group) ([]*nostr.Event, error) {
	d := nostr.Tag{"d", g.id}
	meta := nostr.Tags{d}
	if g.deleted {
		meta = append(meta, nostr.Tag{"deleted"})
	} else {
		for _, t := range g.meta {
			meta = append(meta, append(nostr.Tag(nil), t...))
		}
		if g.parent != "" {
			meta = append(meta, nostr.Tag{"parent", g.parent})
		}
		for _, c := range g.children {
			meta = append(meta, nostr.Tag{"child", c})
		}
	}
	admins := nostr.Tags{d}
	members := nostr.Tags{d}
	for _, p := range g.order {
		members = append(members, nostr.Tag{"p", p})
		if roles := g.members[p]; len(roles) > 0 {
			admins = append(admins, append(nostr.Tag{"p", p}, roles...))
		}
	}
	rolesTags := nostr.Tags{d}
	for _, r := range rolePolicy {
		rolesTags = append(rolesTags, nostr.Tag{"role", r.name, r.description})
	}
	out := []*nostr.Event{cmd}
	for _, st := range []struct {
		kind int
		tags nostr.Tags
	}{{groups.KindMetadata, meta}, {groups.KindAdmins, admins}, {groups.KindMembers, members}, {groups.KindRoles, rolesTags}} {
		at := env.Now()
		if prev, ok := g.lastSent[st.kind]; ok && at <= prev {
			at = prev + 1
		}
		e := &nostr.Event{Kind: st.kind, CreatedAt: at, Tags: st.tags}
		if err := env.Sign(e); err != nil {
			return nil, fmt.Errorf("error: signing group state: %w", err)
		}
		g.lastSent[st.kind] = at
		out = append(out, e)
	}
	return out, nil
}

func tagValue(tags nostr.Tags, name string) string {
	for _, t := range tags {
		if len(t) >= 2 && t[0] == name {
			return t[1]
		}
	}
	return ""
}

// pTag returns the first p tag with a valid pubkey.
func pTag(tags nostr.Tags) nostr.Tag {
	for _, t := range tags {
		if len(t) >= 2 && t[0] == "p" && nostr.IsValid32ByteHex(t[1]) {
			return t
		}
	}
	return nil
}

func sortedSet(in []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, s := range in {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// ChannelExists reports whether group id exists in community and is not
// deleted: the relay's channel table, as NIP-SW's imports (9050) and moves
// (9053) need it ("channels ... exist in the same community, and are not
// deleted"). An archived group still exists. It is swrelay.Options.Channels.
func (a *Authority) ChannelExists(community, id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	g := a.groups[groupKey{community, id}]
	return g != nil && !g.deleted
}
