package report

import "github.com/roster-cli/roster/workspace/sections"

// WorkspacePerson names a pubkey both ways, with its workspace role.
type WorkspacePerson struct {
	Npub   string `json:"npub"`
	Pubkey string `json:"pubkey"`
	Role   string `json:"role"`
}

// WorkspaceList is `workspace list --json` (schema roster.workspace.list/v1).
type WorkspaceList struct {
	Schema     string            `json:"schema"`
	Relay      string            `json:"relay"`
	RelaySelf  string            `json:"relay_self"`
	Community  string            `json:"community"`
	You        WorkspacePerson   `json:"you"`
	Workspaces []WorkspaceListed `json:"workspaces"`
	Rejected   []string          `json:"rejected"`
}

// WorkspaceListed is one workspace of a workspace list.
type WorkspaceListed struct {
	Owner             WorkspacePerson `json:"owner"`
	Role              string          `json:"role"`
	Revision          int64           `json:"revision"`
	LayoutRevision    int64           `json:"layout_revision"`
	KeyEpoch          int64           `json:"key_epoch"`
	ProjectionEventID string          `json:"projection_event_id"`
	Show              string          `json:"show"`
}

// WorkspaceChange is a write's result (schema roster.workspace.change/v1).
type WorkspaceChange struct {
	Schema         string    `json:"schema"`
	Command        string    `json:"command"`
	Kind           int       `json:"kind"`
	EventID        string    `json:"event_id"`
	ActionID       string    `json:"action_id"`
	CommandHash    string    `json:"command_hash"`
	RevisionBefore int64     `json:"revision_before"`
	Revision       int64     `json:"revision"`
	Workspace      Workspace `json:"workspace"`
	// NIP05Lookups are the NIP-05 names given for pubkeys and their keys.
	NIP05Lookups []NIP05Lookup `json:"nip05_lookups"`
}

// WorkspaceSection is one section of a workspace, decrypted.
type WorkspaceSection struct {
	ID       string   `json:"id"`
	Rank     int      `json:"rank"`
	Label    string   `json:"label"`
	Icon     *string  `json:"icon"`
	Channels []string `json:"channels"`
}

// Workspace is `roster workspace show --json` (schema roster.workspace/v1).
type Workspace struct {
	Schema            string                         `json:"schema"`
	Relay             string                         `json:"relay"`
	RelaySelf         string                         `json:"relay_self"`
	Community         string                         `json:"community"`
	Owner             WorkspacePerson                `json:"owner"`
	You               WorkspacePerson                `json:"you"`
	Revision          int64                          `json:"revision"`
	LayoutRevision    int64                          `json:"layout_revision"`
	KeyEpoch          int64                          `json:"key_epoch"`
	Migration         *sections.Migration            `json:"migration"`
	Sections          []WorkspaceSection             `json:"sections"`
	Assignments       []sections.ProjectedAssignment `json:"assignments"`
	Readers           []WorkspacePerson              `json:"readers"`
	ProjectionEventID string                         `json:"projection_event_id"`
	// Decision is the revision rule applied to the relay's answer
	// (accept, ignore, refetch); empty when the relay was not read.
	Decision  string `json:"decision"`
	Refetched bool   `json:"refetched"`
	// Stale: the relay could not be read; this is the last verified cached
	// projection, shown but never used for a write.
	Stale       bool     `json:"stale"`
	StaleReason string   `json:"stale_reason,omitempty"`
	Rejected    []string `json:"rejected"`
}

// WorkspaceImport is `workspace import --json` (schema roster.workspace.import/v1).
type WorkspaceImport struct {
	Schema        string `json:"schema"`
	SourceEventID string `json:"source_event_id"`
	SourceHash    string `json:"source_hash"`
	EventID       string `json:"event_id"`
	ActionID      string `json:"action_id"`
	CommandHash   string `json:"command_hash"`
	// Switched is true once the migration marker read back matches: from now
	// on the relay's projection is the authority and the legacy blob is a
	// read-only rollback artifact that roster never writes.
	Switched bool `json:"switched"`
	// Resumed: this run finished an earlier attempt's import, kept signed
	// under the roster home; Replayed: it sent that exact event again
	// (false: the relay already showed its marker).
	Resumed   bool      `json:"resumed"`
	Replayed  bool      `json:"replayed"`
	Workspace Workspace `json:"workspace"`
}
