package groups

import (
	"context"
	"sort"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/workspace/pipeline"
)

// Listed is one group a relay signed a 39000 for.
type Listed struct {
	ID       string    `json:"id"`
	Metadata *Metadata `json:"metadata"`
	Live     bool      `json:"live"`
	EventID  string    `json:"event_id"`
}

// RelayList is one relay's groups.
type RelayList struct {
	URL    string   `json:"url"`
	Status string   `json:"status"`
	Reason string   `json:"reason,omitempty"`
	Self   string   `json:"self,omitempty"`
	Error  string   `json:"error,omitempty"`
	Groups []Listed `json:"groups"`
	// Rejected counts 39000s not signed by the relay's self (or invalid).
	Rejected int `json:"rejected"`
}

// ListResult is every relay's groups.
type ListResult struct {
	Relays   []RelayList
	Complete bool
}

// List asks every relay for its group metadata (kind 39000) and keeps, per
// relay, the newest 39000 of each group id that the relay's own NIP-11 self
// signed: a group belongs to the relay that hosts it.
func List(ctx context.Context, r pipeline.Relays, relays []string) ListResult {
	infos := pipeline.RelaySelves(ctx, r, relays)
	res := r.Fetch(ctx, relays, nostr.Filter{Kinds: []int{KindMetadata}})
	out := ListResult{Complete: res.Complete}
	for i, rep := range res.Relays {
		rl := RelayList{URL: rep.URL, Status: rep.Status, Reason: rep.Reason, Self: infos[i].Self, Groups: []Listed{}}
		if infos[i].Err != nil {
			rl.Error = infos[i].UnknownSigner()
		}
		newest := map[string]*nostr.Event{}
		for _, e := range pipeline.EventsFrom(res, rep.URL) {
			id := e.Tags.GetD()
			if Verify(e, id, infos[i].Self) != nil {
				rl.Rejected++
				continue
			}
			if cur := newest[id]; cur == nil || e.CreatedAt > cur.CreatedAt || e.CreatedAt == cur.CreatedAt && e.ID < cur.ID {
				newest[id] = e
			}
		}
		for id, e := range newest {
			m := readMetadata(e.Tags)
			rl.Groups = append(rl.Groups, Listed{ID: id, Metadata: m, Live: !m.Archived && !m.Deleted, EventID: e.ID})
		}
		sort.Slice(rl.Groups, func(a, b int) bool { return rl.Groups[a].ID < rl.Groups[b].ID })
		out.Relays = append(out.Relays, rl)
	}
	return out
}

// Moderation kinds that decide membership (nip-29.md "Checking your own
// membership in a group").
const (
	KindPutUser    = 9000
	KindRemoveUser = 9001
)

// Membership is one person's standing in a group on one relay.
type Membership struct {
	Member bool `json:"member"`
	// Basis is what decided Member: "put-user" or "remove-user" (the latest
	// 9000 or 9001 naming the person), "members-list" (no such event, but
	// the relay-signed 39002 lists them) or "none" (neither: not a member).
	Basis string `json:"basis"`
	// EventID is the deciding event (empty for "none").
	EventID   string          `json:"event_id,omitempty"`
	CreatedAt nostr.Timestamp `json:"created_at,omitempty"`
	// Roles are the person's roles in the relay-signed 39001.
	Roles []string `json:"roles"`
	// InMembersList reports whether the 39002 lists them (it may be partial).
	InMembersList bool `json:"in_members_list"`
}

// MembershipOf reads pubkey's membership from what one relay returned for
// group id: the latest 9000 or 9001 whose p tag names pubkey decides (the
// relay accepted it, so an authorized moderator or the relay signed it);
// without one, the relay-signed 39002 listing pubkey makes them a member;
// otherwise they are not. Roles come from the relay-signed 39001 (st).
func MembershipOf(id, pubkey string, st State, events []*nostr.Event) Membership {
	m := Membership{Basis: "none", Roles: []string{}}
	if r := st.RolesOf(pubkey); r != nil {
		m.Roles = append(m.Roles, r...)
	}
	for _, p := range st.Members {
		if p == pubkey {
			m.InMembersList = true
		}
	}
	var latest *nostr.Event
	for _, e := range events {
		if e.Kind != KindPutUser && e.Kind != KindRemoveUser {
			continue
		}
		if tagValue(e.Tags, "h") != id || !namesP(e.Tags, pubkey) {
			continue
		}
		if ok, err := e.CheckSignature(); err != nil || !ok || !e.CheckID() {
			continue
		}
		if latest == nil || e.CreatedAt > latest.CreatedAt || e.CreatedAt == latest.CreatedAt && e.ID < latest.ID {
			latest = e
		}
	}
	switch {
	case latest != nil:
		m.Member = latest.Kind == KindPutUser
		m.Basis = map[int]string{KindPutUser: "put-user", KindRemoveUser: "remove-user"}[latest.Kind]
		m.EventID, m.CreatedAt = latest.ID, latest.CreatedAt
	case m.InMembersList:
		m.Member, m.Basis = true, "members-list"
		for _, s := range st.Sources {
			if s.Kind == KindMembers {
				m.EventID, m.CreatedAt = s.EventID, s.CreatedAt
			}
		}
	}
	return m
}

func tagValue(tags nostr.Tags, name string) string {
	for _, t := range tags {
		if len(t) >= 2 && t[0] == name {
			return t[1]
		}
	}
	return ""
}

func namesP(tags nostr.Tags, pubkey string) bool {
	for _, t := range tags {
		if len(t) >= 2 && t[0] == "p" && t[1] == pubkey {
			return true
		}
	}
	return false
}
