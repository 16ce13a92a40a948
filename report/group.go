package report

import (
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/groups"
)

// Group is `roster group show --json` (schema roster.group/v1). Groups
// are per relay (a fork keeps the id), so each relay's state is listed.
type Group struct {
	Schema   string             `json:"schema"`
	ID       string             `json:"id"`
	Relays   []groups.RelayRead `json:"relays"`
	Complete bool               `json:"complete"`
}

// GroupList is `group list --json` (schema roster.group.list/v1).
type GroupList struct {
	Schema   string             `json:"schema"`
	Relays   []groups.RelayList `json:"relays"`
	Complete bool               `json:"complete"`
}

// GroupMe is `group show --me --json` (schema roster.group.me/v1).
type GroupMe struct {
	Schema   string          `json:"schema"`
	ID       string          `json:"id"`
	You      WorkspacePerson `json:"you"`
	Relays   []GroupMeRelay  `json:"relays"`
	Complete bool            `json:"complete"`
}

// GroupMeRelay is your membership on one relay.
type GroupMeRelay struct {
	URL        string             `json:"url"`
	Status     string             `json:"status"`
	Reason     string             `json:"reason,omitempty"`
	Self       string             `json:"self,omitempty"`
	Error      string             `json:"error,omitempty"`
	Found      bool               `json:"found"`
	Live       bool               `json:"live"`
	Membership *groups.Membership `json:"membership"`
}

// GroupModeration is every moderation command's --json
// (roster.group.moderation/v1, docs/groups.md).
type GroupModeration struct {
	Schema string          `json:"schema"`
	Signer WorkspacePerson `json:"signer"`
	groups.ModerationResult
	Target       *WorkspacePerson `json:"target,omitempty"`
	Code         string           `json:"code,omitempty"`
	Share        string           `json:"share,omitempty"`
	JoinCommand  string           `json:"join_command,omitempty"`
	Metadata     *groups.Metadata `json:"metadata,omitempty"`
	NIP05Lookups []NIP05Lookup    `json:"nip05_lookups"`
}

// GroupMine is `group list --mine --json` (roster.group.mine/v1).
type GroupMine struct {
	Schema string          `json:"schema"`
	You    WorkspacePerson `json:"you"`
	// EventID and CreatedAt are the newest 10009's (empty: none found).
	EventID   string             `json:"event_id,omitempty"`
	CreatedAt int64              `json:"created_at,omitempty"`
	Groups    []groups.ListEntry `json:"groups"`
	Relays    []string           `json:"relays"`
	Complete  bool               `json:"complete"`
}

// GroupMembers is `group members --json` (schema roster.group.members/v1).
type GroupMembers struct {
	Schema   string              `json:"schema"`
	ID       string              `json:"id"`
	Relays   []GroupMembersRelay `json:"relays"`
	Complete bool                `json:"complete"`
}

// GroupMembersRelay is one relay's member list.
type GroupMembersRelay struct {
	URL     string          `json:"url"`
	Status  string          `json:"status"`
	Reason  string          `json:"reason,omitempty"`
	Self    string          `json:"self,omitempty"`
	Error   string          `json:"error,omitempty"`
	Found   bool            `json:"found"`
	Live    bool            `json:"live"`
	Members []GroupMember   `json:"members"`
	Sources []groups.Source `json:"sources"`
}

// GroupMember is one member and their roles.
type GroupMember struct {
	groups.Member
	Npub string `json:"npub"`
}

// GroupRequest is `group join --json` (roster.group.join/v1) and `group
// leave --json` (roster.group.leave/v1).
type GroupRequest struct {
	Schema string          `json:"schema"`
	ID     string          `json:"id"`
	Relay  string          `json:"relay"`
	You    WorkspacePerson `json:"you"`
	// Outcome is joined | pending | already-member (join), left |
	// not-a-member (leave); Explanation says it in words.
	Outcome     string `json:"outcome"`
	Explanation string `json:"explanation"`
	// Note: the relay's records disagree with its duplicate: answer
	// (groups.RequestResult.Note); omitted when they agree.
	Note string `json:"note,omitempty"`
	// Sent: a 9021/9022 was signed and sent (event_id); accepted and
	// message are the relay's OK answer.
	Sent     bool              `json:"sent"`
	EventID  string            `json:"event_id,omitempty"`
	Code     bool              `json:"code"`
	Accepted bool              `json:"accepted"`
	Message  string            `json:"message,omitempty"`
	Before   groups.Membership `json:"before"`
	After    groups.Membership `json:"after"`
	List     GroupListUpdate   `json:"list"`
}

// GroupListUpdate is what happened to your kind 10009 list.
type GroupListUpdate struct {
	// Status: saved | unchanged (already as wanted, or nothing to change) |
	// offered (run commands[0] to save it) | skipped (a pending join).
	Status   string                `json:"status"`
	Previous string                `json:"previous,omitempty"`
	EventID  string                `json:"event_id,omitempty"`
	Relays   []relaypool.Delivered `json:"relays"`
	// Commands are rendered with your --relay, --home, ... flags.
	Commands []string `json:"commands"`
}
