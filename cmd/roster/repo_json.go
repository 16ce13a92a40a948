package main

// repoSchema is the JSON schema name printed by `roster repo --json`.
const repoSchema = "roster.repo/v1"

// repoReport is one read of a repository in the exact roster.repo/v1 shape
// (docs/json.md); field order here is the order printed. Slices are never
// nil so JSON shows [] rather than null; pointers are the fields docs/json.md
// allows to be null. Unexported fields feed only the human rendering.
type repoReport struct {
	Schema                         string            `json:"schema"`
	Coordinate                     coordinateJSON    `json:"coordinate"`
	SelectedMaintainer             string            `json:"selected_maintainer"`
	peopleJSON                                       // lead_maintainer ... moderators
	PendingHistoryAcknowledgements []pendingAckJSON  `json:"pending_history_acknowledgements"`
	Health                         []findingJSON     `json:"health"`
	RecommendedCoordinate          *string           `json:"recommended_coordinate"`
	FollowLeadCommand              *string           `json:"follow_lead_command"`
	Lifecycle                      lifecycleJSON     `json:"lifecycle"`
	State                          *stateJSON        `json:"state"`
	Relays                         []relayReportJSON `json:"relays"`
	Complete                       bool              `json:"complete"`

	meta    repoMetadata // announcement metadata, human output only
	offline bool         // answered from the cache alone
	viewer  string       // npub of the signed-in user, "" for nobody
}

type coordinateJSON struct {
	Kind       int    `json:"kind"`
	Pubkey     string `json:"pubkey"`
	Npub       string `json:"npub"`
	Identifier string `json:"identifier"`
	Naddr      string `json:"naddr"`
}

type memberJSON struct {
	Npub   string `json:"npub"`
	Pubkey string `json:"pubkey"`
	Status string `json:"status"` // confirmed | invited
}

type pendingAckJSON struct {
	Npub       string `json:"npub"`
	Transition string `json:"transition"` // start | end
	Time       int64  `json:"time"`
	Command    string `json:"command"`

	author string // npub of whose announcement lacks it, human output only
}

type findingJSON struct {
	Severity string  `json:"severity"` // error | warning
	Code     string  `json:"code"`
	Author   *string `json:"author"` // npub, null when the finding concerns no one author
	Message  string  `json:"message"`
	Command  *string `json:"command"` // null when there is nothing to run
}

type lifecycleJSON struct {
	Status string  `json:"status"` // active | archived | deleted | restarted
	Actor  *string `json:"actor"`  // npub; null while active
	Time   *int64  `json:"time"`   // unix seconds; null while active
}

type stateJSON struct {
	EventID string            `json:"event_id"`
	Author  string            `json:"author"`
	Head    string            `json:"head"`
	Refs    map[string]string `json:"refs"` // encoding/json sorts map keys: stable order
}

type relayReportJSON struct {
	URL    string `json:"url"`
	Status string `json:"status"` // ok | closed | failed | timeout
	Events int    `json:"events"`

	reason string // why a relay closed or failed, human output only
	// dropped counts events the relay sent that failed verification (id,
	// signature or filter); human output only, roster.repo/v1 has no field.
	dropped int
}

// repoMetadata is the selected announcement's descriptive fields.
type repoMetadata struct {
	Name, Description string
	Clone, Web        []string
	Relays            []string
	EUC               string // earliest unique commit
}

// peopleJSON are the lead and membership fields that roster.repo/v1,
// roster.mutation/v1 and a mutation preview's before/after share, in order.
type peopleJSON struct {
	LeadMaintainer *string      `json:"lead_maintainer"`
	LeadSource     string       `json:"lead_source"`
	LeadPath       []string     `json:"lead_path"`
	Maintainers    []memberJSON `json:"maintainers"`
	Moderators     []memberJSON `json:"moderators"`
}
