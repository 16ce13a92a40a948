package report

import "github.com/roster-cli/roster/workspace/projects"

// ProjectList is `project list --json` (schema roster.project.list/v2).
type ProjectList struct {
	Schema    string               `json:"schema"`
	Owner     *string              `json:"owner"` // npub, or null
	Admin     *string              `json:"admin"` // npub, or null
	Projects  []ProjectListed      `json:"projects"`
	Relays    []projects.RelayRead `json:"relays"`
	Complete  bool                 `json:"complete"`
	Truncated []string             `json:"truncated"`
	// NIP05Lookups: --owner given as a NIP-05 name, and its key.
	NIP05Lookups []NIP05Lookup `json:"nip05_lookups"`
}

// ProjectListed is one project of a project list.
type ProjectListed struct {
	Coordinate    string   `json:"coordinate"`
	Naddr         string   `json:"naddr"`
	Relay         string   `json:"relay"`
	Why           []string `json:"why"`
	OwnerNpub     string   `json:"owner_npub"`
	Name          string   `json:"name"`
	HomeChannel   *string  `json:"home_channel"`
	Revision      int64    `json:"revision"`
	Deleted       bool     `json:"deleted"`
	State         bool     `json:"state"`
	IdentityEvent string   `json:"identity_event,omitempty"`
}

// ProjectHealth is `roster project health --json`.
type ProjectHealth struct {
	Schema         string               `json:"schema"`
	Coordinate     string               `json:"coordinate"`
	Naddr          string               `json:"naddr"`
	Revision       int64                `json:"revision"`
	Deleted        bool                 `json:"deleted"`
	Strict         bool                 `json:"strict"`
	StrictScope    *string              `json:"strict_scope"`
	Healthy        bool                 `json:"healthy"`
	Unhealthy      int                  `json:"unhealthy"`
	Unresolved     int                  `json:"unresolved"`
	Errors         int                  `json:"errors"`
	Warnings       int                  `json:"warnings"`
	GatingWarnings int                  `json:"gating_warnings"`
	Repositories   []ProjectRepository  `json:"repositories"`
	Relays         []projects.RelayRead `json:"relays"`
	Complete       bool                 `json:"complete"`
	// Commands are what to run next when the verdict is incomplete (a
	// member not judged, a relay silent about the project); [] otherwise.
	Commands []string `json:"commands"`
}

// ProjectIdentity is the result of create, update and delete (schema
// roster.project.identity/v1).
type ProjectIdentity struct {
	Schema         string  `json:"schema"`
	Command        string  `json:"command"`
	Coordinate     string  `json:"coordinate"`
	Naddr          string  `json:"naddr"`
	Relay          string  `json:"relay"`
	Owner          string  `json:"owner"`
	OwnerNpub      string  `json:"owner_npub"`
	EventID        string  `json:"event_id"`
	Kind           int     `json:"kind"`
	RevisionBefore int64   `json:"revision_before"`
	Revision       int64   `json:"revision"`
	Project        Project `json:"project"`
}

// Project is `roster project show --json` (schema roster.project/v2,
// with Repositories) and the project of the identity writes (v1, without).
type Project struct {
	Schema          string               `json:"schema"`
	Coordinate      string               `json:"coordinate"`
	Owner           string               `json:"owner"`
	OwnerNpub       string               `json:"owner_npub"`
	D               string               `json:"d"`
	Address         string               `json:"address"`
	Naddr           string               `json:"naddr"`
	Revision        int64                `json:"revision"`
	Deleted         bool                 `json:"deleted"`
	Name            string               `json:"name"`
	Description     string               `json:"description"`
	HomeChannel     *string              `json:"home_channel"`
	RelatedChannels []string             `json:"related_channels"`
	Visibility      string               `json:"visibility"`
	Members         []projects.Member    `json:"members"`
	UnknownTags     [][]string           `json:"unknown_tags"`
	ProjectTags     [][]string           `json:"project_tags"`
	Projection      ProjectProjection    `json:"projection"`
	Relays          []projects.RelayRead `json:"relays"`
	Complete        bool                 `json:"complete"`
	// Stale: no relay that answered has the project and the shown state is
	// the last verified one cached from a relay that did not answer.
	Stale       bool   `json:"stale"`
	StaleReason string `json:"stale_reason"`
	// Repositories are the member repositories read (project show,
	// roster.project/v2); nil, and absent, in the identity writes'
	// roster.project/v1.
	Repositories *[]ProjectRepository `json:"repositories,omitempty"`
}

// ProjectProjection is the relay-signed state event a project is shown from.
type ProjectProjection struct {
	EventID       string `json:"event_id"`
	CreatedAt     int64  `json:"created_at"`
	Relay         string `json:"relay"`
	Signer        string `json:"signer"`
	IdentityEvent string `json:"identity_event"`
	ChangeEvent   string `json:"change_event"`
}

// ProjectChange is the result of relate/unrelate (schema
// roster.project.change/v2: v1 and authority).
type ProjectChange struct {
	Schema           string   `json:"schema"`
	Coordinate       string   `json:"coordinate"`
	Relay            string   `json:"relay"`
	Actor            string   `json:"actor"`
	ActorNpub        string   `json:"actor_npub"`
	Add              []string `json:"add"`
	Remove           []string `json:"remove"`
	ExpectedRevision int64    `json:"expected_revision"`
	Revision         int64    `json:"revision"`
	RelatedChannels  []string `json:"related_channels"`
	Published        []string `json:"published"`
	Retried          bool     `json:"retried"`
	// Authority is how roster checked, before signing, that you may make
	// the change.
	Authority ProjectAuthority `json:"authority"`
}

// ProjectAuthority is projects.CheckResult.
type ProjectAuthority struct {
	Basis string `json:"basis"` // owner | home-channel-role | unverifiable
	Note  string `json:"note,omitempty"`
}
