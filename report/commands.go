package report

import (
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/hooks"
)

// The JSON documents of the account, cache, hooks and version commands
// (docs/json.md). The command tree fills them; each prints every
// documented field, null when it does not apply, so scripts see one
// stable shape.

// Whoami is roster.whoami/v1. Bunker is the bunker URL, null for a key
// that is not a bunker's.
type Whoami struct {
	Schema  string  `json:"schema"`
	Npub    string  `json:"npub"`
	Pubkey  string  `json:"pubkey"`
	Backend string  `json:"backend"`
	Bunker  *string `json:"bunker"`
}

// Login is roster.login/v1. Like whoami and logout it always prints
// every documented field, null when it does not apply.
type Login struct {
	Schema    string  `json:"schema"`
	Npub      string  `json:"npub"`
	Pubkey    string  `json:"pubkey"`
	Backend   string  `json:"backend"`
	Bunker    *string `json:"bunker"`
	Generated bool    `json:"generated"`
	// Nsec is set only for --generate --show-secret.
	Nsec *string `json:"nsec"`
	// EnvKeyOverrides is true when ROSTER_SECRET_KEY is set and so wins.
	EnvKeyOverrides bool `json:"env_key_overrides"`
}

// Logout is roster.logout/v1: npub and backend are null when nobody was
// logged in, bunker_client_pubkey unless the login was a bunker's.
type Logout struct {
	Schema    string  `json:"schema"`
	LoggedOut bool    `json:"logged_out"`
	Npub      *string `json:"npub"`
	Backend   *string `json:"backend"`
	// BunkerClientPubkey is the client key the bunker may still authorize.
	BunkerClientPubkey *string `json:"bunker_client_pubkey"`
	EnvKeyStillSet     bool    `json:"env_key_still_set"`
}

// Version is roster.version/v2: what the Go toolchain recorded in the
// binary (runtime/debug.ReadBuildInfo).
type Version struct {
	Schema string `json:"schema"`
	// Version is the module version `go install ...@v1.2.3` records, the
	// pseudo-version a build in a checkout gets, or "devel".
	Version string `json:"version"`
	// Commit is vcs.revision, null when the build recorded none (`go
	// install ...@version` builds from the module zip, without Git).
	Commit *string `json:"commit"`
	// Dirty is vcs.modified: the checkout had uncommitted changes.
	Dirty bool `json:"dirty"`
	// Go is the toolchain that built the binary ("go1.26.0").
	Go string `json:"go"`
}

// CacheInfo is `roster cache info --json` (roster.cache-info/v2).
type CacheInfo struct {
	Schema string `json:"schema"`
	Exists bool   `json:"exists"`
	cache.Info
	// ReadOnly is why the file was opened read-only (text output only:
	// the v2 schema has no field for it).
	ReadOnly error `json:"-"`
}

// CacheClear is `roster cache clear --json` (roster.cache-clear/v1); a
// struct so that `schema` prints first, as in every other command's
// object.
type CacheClear struct {
	Schema  string `json:"schema"`
	Path    string `json:"path"`
	Removed bool   `json:"removed"`
}

// HooksTarget starts every hooks command's object: the hooks directory
// and core.hooksPath.
type HooksTarget struct {
	Schema        string  `json:"schema"`
	HooksDir      string  `json:"hooks_dir"`
	CoreHooksPath *string `json:"core_hooks_path"`
}

// HooksChange is roster.hooks-install/v1 (with binary and flags) and
// roster.hooks-uninstall/v1.
type HooksChange struct {
	HooksTarget
	Binary *string        `json:"binary,omitempty"`
	Flags  []string       `json:"flags,omitempty"`
	Hooks  []hooks.Action `json:"hooks"`
}

// HooksStatus is roster.hooks-status/v1.
type HooksStatus struct {
	HooksTarget
	Hooks []hooks.SlotStatus `json:"hooks"`
}
