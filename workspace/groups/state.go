// Package groups reads NIP-29 group state from relay-signed events only:
// kind 39000 metadata, 39001 admins with roles, 39002 members and 39003
// roles. Each kind is verified against the relay's NIP-11 `self` and the newest
// version replaces, never merges with, older ones. (go-nostr's nip29 neither
// checks the signer nor removes anyone, so it is not used for state.)
package groups

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
)

// Relay-generated group state kinds (nip-29.md "Group metadata events").
const (
	KindMetadata = 39000
	KindAdmins   = 39001
	KindMembers  = 39002
	KindRoles    = 39003
)

// StateKinds are the kinds a client fetches to read one group.
var StateKinds = []int{KindMetadata, KindAdmins, KindMembers, KindRoles}

// Admin is one 39001 entry: a pubkey and its roles.
type Admin struct {
	Pubkey string   `json:"pubkey"`
	Roles  []string `json:"roles"`
}

// Role is one 39003 entry.
type Role struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// Metadata is the 39000 group metadata.
type Metadata struct {
	Name       string `json:"name,omitempty"`
	Picture    string `json:"picture,omitempty"`
	Banner     string `json:"banner,omitempty"`
	About      string `json:"about,omitempty"`
	Private    bool   `json:"private"`
	Restricted bool   `json:"restricted"`
	Hidden     bool   `json:"hidden"`
	Closed     bool   `json:"closed"`
	// Archived is an `["archived", "true"]` tag on 39000, read as Buzz reads
	// it: any other value (or none) is not archived. Deleted is a `deleted`
	// tag: the reference relay replaces a deleted group's state with such a
	// tombstone so that caches cannot resurrect it.
	Archived bool     `json:"archived"`
	Deleted  bool     `json:"deleted"`
	Parent   string   `json:"parent,omitempty"`
	Children []string `json:"children"`
}

// Source names the relay-signed event a part of the state came from.
type Source struct {
	Kind      int             `json:"kind"`
	EventID   string          `json:"event_id"`
	CreatedAt nostr.Timestamp `json:"created_at"`
}

// Rejection is an event that was not used, and why.
type Rejection struct {
	EventID string `json:"event_id"`
	Kind    int    `json:"kind"`
	Reason  string `json:"reason"`
}

// State is one group's state as one relay signed it.
type State struct {
	ID       string    `json:"id"`
	Metadata *Metadata `json:"metadata"` // nil without a valid 39000
	Admins   []Admin   `json:"admins"`
	Members  []string  `json:"members"`
	Roles    []Role    `json:"roles"`
	// MemberRoles are roles the 39002 gives members (Buzz's relay writes
	// them there); RolesOf uses them for a pubkey the 39001 does not list.
	MemberRoles map[string][]string `json:"member_roles,omitempty"`
	Sources     []Source            `json:"sources"`
	Rejected    []Rejection         `json:"rejected"`
	// Events are the verified events Sources name, for the cache.
	Events []*nostr.Event `json:"-"`
}

// ErrEvent marks a group state event that fails verification.
var ErrEvent = errors.New("invalid group state event")

// Verify checks one group state event: a kind 39000-39003, a valid id and
// signature, signed by relaySelf, with exactly one `d` equal to id.
func Verify(evt *nostr.Event, id, relaySelf string) error {
	if evt == nil || evt.Kind < KindMetadata || evt.Kind > KindRoles {
		return fmt.Errorf("%w: not a kind 39000-39003 event", ErrEvent)
	}
	if relaySelf == "" {
		return fmt.Errorf("%w: the relay advertises no NIP-11 self pubkey, so its group state cannot be trusted", ErrEvent)
	}
	if evt.PubKey != relaySelf {
		return fmt.Errorf("%w: signed by %s, not the relay identity %s", ErrEvent, evt.PubKey, relaySelf)
	}
	if evt.ID != evt.GetID() {
		return fmt.Errorf("%w: event id does not match its content", ErrEvent)
	}
	if ok, err := evt.CheckSignature(); err != nil || !ok {
		return fmt.Errorf("%w: bad signature", ErrEvent)
	}
	var ds []string
	for _, t := range evt.Tags {
		if len(t) >= 2 && t[0] == "d" {
			ds = append(ds, t[1])
		}
	}
	if len(ds) != 1 || ds[0] != id {
		return fmt.Errorf("%w: d tag is not the group id %q", ErrEvent, id)
	}
	return nil
}

// Build reads group id from the events one relay returned. Only events that
// Verify are used; of each kind the newest (greatest created_at, then lowest
// id) replaces the rest entirely.
func Build(id, relaySelf string, events []*nostr.Event) State {
	st := State{ID: id, Admins: []Admin{}, Members: []string{}, Roles: []Role{}, Sources: []Source{}, Rejected: []Rejection{}}
	newest := map[int]*nostr.Event{}
	for _, e := range events {
		if e == nil || e.Kind < KindMetadata || e.Kind > KindRoles || e.Tags.GetD() != id {
			continue
		}
		if err := Verify(e, id, relaySelf); err != nil {
			st.Rejected = append(st.Rejected, Rejection{EventID: e.ID, Kind: e.Kind, Reason: err.Error()})
			continue
		}
		if cur := newest[e.Kind]; cur == nil || e.CreatedAt > cur.CreatedAt || e.CreatedAt == cur.CreatedAt && e.ID < cur.ID {
			newest[e.Kind] = e
		}
	}
	for _, k := range StateKinds {
		e := newest[k]
		if e == nil {
			continue
		}
		st.Sources = append(st.Sources, Source{Kind: k, EventID: e.ID, CreatedAt: e.CreatedAt})
		st.Events = append(st.Events, e)
		switch k {
		case KindMetadata:
			st.Metadata = readMetadata(e.Tags)
		case KindAdmins:
			st.Admins = readAdmins(e.Tags)
		case KindMembers:
			st.Members, st.MemberRoles = readMembers(e.Tags)
		case KindRoles:
			st.Roles = readRoles(e.Tags)
		}
	}
	return st
}

func readMetadata(tags nostr.Tags) *Metadata {
	m := &Metadata{Children: []string{}}
	for _, t := range tags {
		if len(t) == 0 {
			continue
		}
		v := ""
		if len(t) > 1 {
			v = t[1]
		}
		switch t[0] {
		case "name":
			m.Name = v
		case "picture":
			m.Picture = v
		case "banner":
			m.Banner = v
		case "about":
			m.About = v
		case "private":
			m.Private = true
		case "restricted":
			m.Restricted = true
		case "hidden":
			m.Hidden = true
		case "closed":
			m.Closed = true
		case "archived":
			m.Archived = v == "true"
		case "deleted":
			m.Deleted = true
		case "parent":
			m.Parent = v
		case "child":
			m.Children = append(m.Children, v)
		}
	}
	return m
}

// readAdmins reads ["p", pubkey, role...] (nip-29.md) and Buzz's shape, a
// `p` tag followed by separate ["role", r] tags (pairedRoles); a pubkey
// listed twice keeps the union of its roles in first-seen order.
func readAdmins(tags nostr.Tags) []Admin {
	out := []Admin{}
	at := map[string]int{}
	for _, pr := range pairedRoles(tags) {
		i, ok := at[pr.Pubkey]
		if !ok {
			i = len(out)
			at[pr.Pubkey] = i
			out = append(out, Admin{Pubkey: pr.Pubkey, Roles: []string{}})
		}
		for _, r := range pr.Roles {
			if !slices.Contains(out[i].Roles, r) {
				out[i].Roles = append(out[i].Roles, r)
			}
		}
	}
	return out
}

// pairedRoles reads each valid `p` tag with its roles: those inside the tag
// (nip-29.md: ["p", pubkey, role...]) and, as Buzz's relay writes them,
// separate ["role", r] tags that directly follow it (["p", pubkey],
// ["role", "owner"], ["role", "admin"], ["p", ...]). A `role` tag is paired
// only when that is unambiguous: right after a `p` tag or after another
// `role` tag that is; one after any other tag (or before the first `p`) is
// ignored. Only 39001 and 39002 are read this way: 39003's `role` tags list
// the roles the relay supports.
func pairedRoles(tags nostr.Tags) []Admin {
	out := []Admin{}
	cur := -1 // the entry the next role tag would belong to
	for _, t := range tags {
		switch {
		case len(t) >= 2 && t[0] == "p" && nostr.IsValid32ByteHex(t[1]):
			a := Admin{Pubkey: t[1], Roles: []string{}}
			for _, r := range t[2:] {
				if r != "" && !slices.Contains(a.Roles, r) {
					a.Roles = append(a.Roles, r)
				}
			}
			out = append(out, a)
			cur = len(out) - 1
		case len(t) >= 2 && t[0] == "role" && cur >= 0:
			if r := t[1]; r != "" && !slices.Contains(out[cur].Roles, r) {
				out[cur].Roles = append(out[cur].Roles, r)
			}
		default:
			cur = -1
		}
	}
	return out
}

// readMembers reads the 39002's pubkeys, and the roles it gives them
// (inside the p tag or, Buzz's shape, in role tags after it; NIP-29 puts
// roles in 39001 only).
func readMembers(tags nostr.Tags) ([]string, map[string][]string) {
	out := []string{}
	roles := map[string][]string{}
	for _, pr := range pairedRoles(tags) {
		if !slices.Contains(out, pr.Pubkey) {
			out = append(out, pr.Pubkey)
		}
		for _, r := range pr.Roles {
			if !slices.Contains(roles[pr.Pubkey], r) {
				roles[pr.Pubkey] = append(roles[pr.Pubkey], r)
			}
		}
	}
	if len(roles) == 0 {
		roles = nil
	}
	return out, roles
}

func readRoles(tags nostr.Tags) []Role {
	out := []Role{}
	for _, t := range tags {
		if len(t) >= 2 && t[0] == "role" {
			r := Role{Name: t[1]}
			if len(t) > 2 {
				r.Description = t[2]
			}
			out = append(out, r)
		}
	}
	return out
}

// Live reports whether the group exists on the relay and is neither archived
// nor deleted.
func (s State) Live() bool {
	return s.Metadata != nil && !s.Metadata.Archived && !s.Metadata.Deleted
}

// RolesOf returns pubkey's roles from the current 39001, or, when it does
// not list pubkey, those the 39002 gives (nil when none).
func (s State) RolesOf(pubkey string) []string {
	for _, a := range s.Admins {
		if a.Pubkey == pubkey {
			return a.Roles
		}
	}
	if r := s.MemberRoles[pubkey]; len(r) > 0 {
		return r
	}
	return nil
}
