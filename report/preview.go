package report

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
