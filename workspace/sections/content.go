package sections

// Command content shapes. Every field is required (strictjson: no omitempty);
// nullable fields are pointers and must still be present.

// ImportSection is one section of a 9050 import.
type ImportSection struct {
	ID             string  `json:"id"`
	Rank           int     `json:"rank"`
	EncryptedLabel string  `json:"encrypted_label"`
	EncryptedIcon  *string `json:"encrypted_icon"`
}

// Assignment places a channel in a section.
type Assignment struct {
	ChannelID string `json:"channel_id"`
	SectionID string `json:"section_id"`
}

// Import is kind 9050 content: revision-zero import of the legacy blob.
type Import struct {
	Version          int             `json:"version"`
	ActionID         string          `json:"action_id"`
	SourceEventID    string          `json:"source_event_id"`
	SourceHash       string          `json:"source_hash"`
	KeyEpoch         int64           `json:"key_epoch"`
	OwnerKeyEnvelope string          `json:"owner_key_envelope"`
	Sections         []ImportSection `json:"sections"`
	Assignments      []Assignment    `json:"assignments"`
}

// Grant is kind 9051 content.
type Grant struct {
	Version     int    `json:"version"`
	ActionID    string `json:"action_id"`
	ActorPubkey string `json:"actor_pubkey"`
	Role        Role   `json:"role"`
	KeyEpoch    int64  `json:"key_epoch"`
	KeyEnvelope string `json:"key_envelope"`
}

// ReencryptedSection is one active section's metadata under the new epoch.
type ReencryptedSection struct {
	SectionID      string  `json:"section_id"`
	EncryptedLabel string  `json:"encrypted_label"`
	EncryptedIcon  *string `json:"encrypted_icon"`
}

// ReaderEnvelope is the new-epoch key wrapped for one remaining reader.
type ReaderEnvelope struct {
	ReaderPubkey string `json:"reader_pubkey"`
	KeyEnvelope  string `json:"key_envelope"`
}

// Revoke is kind 9052 content: revoke one grant and rotate the key.
type Revoke struct {
	Version     int                  `json:"version"`
	ActionID    string               `json:"action_id"`
	ActorPubkey string               `json:"actor_pubkey"`
	NewKeyEpoch int64                `json:"new_key_epoch"`
	Sections    []ReencryptedSection `json:"sections"`
	Envelopes   []ReaderEnvelope     `json:"envelopes"`
}

// Move is kind 9053 content (shape designed by roster, docs/workspaces.md):
// put one channel in one section, or, with a null section_id, take it out of
// its section (unassign: a mover assigns and unassigns).
type Move struct {
	Version   int     `json:"version"`
	ActionID  string  `json:"action_id"`
	ChannelID string  `json:"channel_id"`
	SectionID *string `json:"section_id"`
}

// Unassigns reports whether the move takes the channel out of its section.
func (c *Move) Unassigns() bool { return c.SectionID == nil }

// ManageOp names a 9054 operation.
type ManageOp string

const (
	OpAdd     ManageOp = "add"
	OpRename  ManageOp = "rename"
	OpReorder ManageOp = "reorder"
	OpRemove  ManageOp = "remove"
)

// Kind 9054 content (shape designed by roster, docs/workspaces.md) has one
// exact shape per op, so strict decoding still rejects everything unknown.

// ManageSection is the content of op "add" (appended after the last section)
// and op "rename" (new label and icon for an existing section). The
// ciphertexts are under the current key epoch, which the relay checks.
type ManageSection struct {
	Version        int      `json:"version"`
	ActionID       string   `json:"action_id"`
	Op             ManageOp `json:"op"`
	KeyEpoch       int64    `json:"key_epoch"`
	SectionID      string   `json:"section_id"`
	EncryptedLabel string   `json:"encrypted_label"`
	EncryptedIcon  *string  `json:"encrypted_icon"`
}

// ManageReorder is op "reorder": the complete new order of the active
// sections; ranks become the indexes.
type ManageReorder struct {
	Version    int      `json:"version"`
	ActionID   string   `json:"action_id"`
	Op         ManageOp `json:"op"`
	SectionIDs []string `json:"section_ids"`
}

// ManageRemove is op "remove": delete a section; its channels become
// unassigned and the remaining ranks close the gap.
type ManageRemove struct {
	Version   int      `json:"version"`
	ActionID  string   `json:"action_id"`
	Op        ManageOp `json:"op"`
	SectionID string   `json:"section_id"`
}
