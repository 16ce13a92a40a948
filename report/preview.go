package report

import "github.com/roster-cli/roster/workspace/groups"

// ConsequencePreviewSchema is the schema of a --dry-run preview's JSON
// document.
const ConsequencePreviewSchema = "roster.preview/v1"

// ConsequencePreview is a destructive write's consequence (docs/json.md). With
// --dry-run it is the whole output; nothing is signed or sent.
type ConsequencePreview struct {
	Schema  string `json:"schema"`
	Command string `json:"command"` // "project delete", "workspace revoke", ...
	DryRun  bool   `json:"dry_run"`
	Relay   string `json:"relay"`
	// Consequences are the sentences the human output prints (people and
	// channels as a pipe names them).
	Consequences []string `json:"consequences"`
	// Facts are the command's own structured facts (docs/json.md).
	Facts any `json:"facts"`
}

// ProjectAuthorityPerson is someone who may change a project's related
// channels, with why.
type ProjectAuthorityPerson struct {
	Npub   string   `json:"npub"`
	Pubkey string   `json:"pubkey"`
	Roles  []string `json:"roles"`
}

// ProjectHomeFacts are `project update --home-channel --dry-run --json`'s
// (and create's) facts.
type ProjectHomeFacts struct {
	Coordinate string  `json:"coordinate"`
	Revision   int64   `json:"revision"`
	HomeBefore *string `json:"home_channel_before"`
	HomeAfter  *string `json:"home_channel_after"`
	// MayChangeBefore and MayChangeAfter are the owners and admins of the
	// old and the new home channel, as its relay-signed admin list (kind
	// 39001) names them; the project owner may always.
	MayChangeBefore []ProjectAuthorityPerson `json:"may_change_before"`
	MayChangeAfter  []ProjectAuthorityPerson `json:"may_change_after"`
	// SignerMembership is the signer's standing in the new home channel:
	// member | not-member | no-channel | unknown (the relay did not answer).
	SignerMembership string `json:"signer_membership"`
	// ConfirmationNeeded: the write asks for --yes (a terminal prompt).
	ConfirmationNeeded bool `json:"confirmation_needed"`
}

// ProjectDeleteFacts are `project delete --dry-run --json`'s facts.
type ProjectDeleteFacts struct {
	Coordinate      string   `json:"coordinate"`
	Revision        int64    `json:"revision"`
	RevisionAfter   int64    `json:"revision_after"`
	Name            string   `json:"name"`
	Description     string   `json:"description"`
	HomeChannel     *string  `json:"home_channel"`
	RelatedChannels []string `json:"related_channels"`
	Repositories    []string `json:"repositories"`
	Undoable        bool     `json:"undoable"`
}

// WorkspaceRevokeFacts are `workspace revoke --dry-run --json`'s facts.
type WorkspaceRevokeFacts struct {
	Owner          WorkspacePerson   `json:"owner"`
	Revoked        WorkspacePerson   `json:"revoked"`
	Remaining      []WorkspacePerson `json:"remaining_readers"`
	KeyEpochBefore int64             `json:"key_epoch_before"`
	KeyEpochAfter  int64             `json:"key_epoch_after"`
	Sections       int               `json:"sections_reencrypted"`
	Revision       int64             `json:"revision"`
}

// WorkspaceRemoveFacts are `workspace section remove --dry-run --json`'s facts.
type WorkspaceRemoveFacts struct {
	Owner      WorkspacePerson  `json:"owner"`
	Section    WorkspaceSection `json:"section"`
	Unassigned []string         `json:"unassigned_channels"`
	Revision   int64            `json:"revision"`
}

// GroupLeaveFacts are `group leave --dry-run --json`'s facts.
type GroupLeaveFacts struct {
	ID    string          `json:"id"`
	Name  string          `json:"name,omitempty"`
	Relay string          `json:"relay"`
	You   WorkspacePerson `json:"you"`
	// WouldSend: a kind 9022 would be sent (you are a member).
	WouldSend  bool              `json:"would_send"`
	Membership groups.Membership `json:"membership"`
	RolesLost  []string          `json:"roles_lost"`
	// OnlyOwner: you are the group's only owner (the reference relay
	// refuses the last owner's leave).
	OnlyOwner bool `json:"only_owner"`
	// HomeOf are the projects whose home channel this group is and whose
	// related channels your role lets you change: after leaving you cannot.
	HomeOf  []string `json:"home_channel_of"`
	Private bool     `json:"private"`
	Closed  bool     `json:"closed"`
	// ListEntry: with --save, the group's entry leaves your kind 10009 list.
	ListEntry bool `json:"list_entry_removed"`
}
