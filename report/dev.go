package report

// DevRelay is the --json line printed once the relay listens
// (roster.dev-relay/v1, docs/json.md).
type DevRelay struct {
	Schema     string           `json:"schema"`
	URL        string           `json:"url"`
	Self       string           `json:"self"`
	Naddr      string           `json:"naddr,omitempty"`
	Coordinate string           `json:"coordinate,omitempty"`
	People     []DevRelayPerson `json:"people,omitempty"`
	// The relay-authoritative demo state (--seed demo): the workspace
	// owner (npub), the project's naddr (kind 30621, this relay as hint)
	// and coordinate, and the NIP-29 group id (the project's home channel).
	WorkspaceOwner    string `json:"workspace_owner,omitempty"`
	ProjectNaddr      string `json:"project_naddr,omitempty"`
	ProjectCoordinate string `json:"project_coordinate,omitempty"`
	GroupID           string `json:"group_id,omitempty"`
	// CloneURL is the demo's Git server; StatusByMaintainer and
	// StatusByRemoved the nevents of alice's and dave's statuses on
	// carol's issue; Try the banner's try: lines.
	CloneURL           string   `json:"clone_url,omitempty"`
	StatusByMaintainer string   `json:"status_by_maintainer,omitempty"`
	StatusByRemoved    string   `json:"status_by_removed_maintainer,omitempty"`
	Try                []string `json:"try,omitempty"`
}

// DevRelayPerson is one of the demo's people (their keys are public).
type DevRelayPerson struct {
	Name   string `json:"name"`
	Role   string `json:"role"`
	Pubkey string `json:"pubkey"`
	Npub   string `json:"npub"`
}
