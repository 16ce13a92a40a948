package report

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/relaypool"
)

// RepoInitSchema is the JSON of `roster repo init`. v2 names a relay's
// answer as every publishing command does (relaypool.Delivered: "ok", not
// v1's "accepted"); docs/json.md.
const RepoInitSchema = "roster.repo-init/v3"

// RepoInit is roster.repo-init/v3.
type RepoInit struct {
	Schema     string                `json:"schema"`
	Coordinate RepoInitCoordinate    `json:"coordinate"`
	Published  []string              `json:"published"`
	Replaces   *string               `json:"replaces"`
	Event      *nostr.Event          `json:"event"`
	Relays     []relaypool.Delivered `json:"relays"`
	Verified   bool                  `json:"verified"`
	// Unchanged: your announcement already had these tags; nothing was
	// published (event is that announcement).
	Unchanged bool              `json:"unchanged"`
	GitConfig RepoInitGitConfig `json:"git_config"`
	Backend   string            `json:"signer_backend"`
	// Share is the nostr:// URL to send a co-maintainer (with a relay that
	// returned the announcement as hint) and the command they accept with.
	Share *Share `json:"share"`
	// Error is set when the result is not a success (exit 6): what was
	// published is still reported.
	Error *ErrorBody `json:"error,omitempty"`
}

// RepoInitCoordinate is the repository init announced (or would).
type RepoInitCoordinate struct {
	Kind       int    `json:"kind"`
	Pubkey     string `json:"pubkey"`
	Npub       string `json:"npub"`
	Identifier string `json:"identifier"`
	Naddr      string `json:"naddr"`
}

// RepoInitGitConfig is what init set in the checkout's configuration
// (or would): nil when it did not.
type RepoInitGitConfig struct {
	NostrRepo *string `json:"nostr.repo"`
	Origin    *string `json:"origin"`
}

// RepoInitPreviewSchema is the JSON of `roster repo init --dry-run`.
const RepoInitPreviewSchema = "roster.repo-init-preview/v1"

// RepoInitPreview is roster.repo-init-preview/v1: what init would publish,
// nothing signed or sent.
type RepoInitPreview struct {
	Schema     string             `json:"schema"`
	DryRun     bool               `json:"dry_run"`
	Coordinate RepoInitCoordinate `json:"coordinate"`
	// Event is the announcement that would be signed: kind, pubkey,
	// created_at, tags and content; id and sig are empty.
	Event *nostr.Event `json:"event"`
	// Relays are where it would be published.
	Relays []string `json:"relays"`
	// Replaces is the id of your earlier announcement it would replace.
	Replaces *string `json:"replaces"`
	// Unchanged: your announcement already says this; init would publish
	// nothing.
	Unchanged bool `json:"unchanged"`
	// GitConfig is what the checkout's configuration would be set to once
	// a relay holds the announcement.
	GitConfig RepoInitGitConfig `json:"git_config"`
}
