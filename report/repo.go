// Package report holds roster's JSON documents of a repository read, a
// health check and a membership change (roster.repo/v2,
// roster.repo-health/v1, roster.mutation/v2; docs/json.md) and builds them
// from a discovery and a preview. Field order is the order printed; graph
// speaks hex, people get npubs here.
package report

import "github.com/roster-cli/roster/suggest"

// RepoSchema is the JSON schema name printed by `roster repo --json`.
const RepoSchema = "roster.repo/v2"

// Repo is one read of a repository in the exact roster.repo/v2 shape
// (docs/json.md); field order here is the order printed. Slices are never
// nil so JSON shows [] rather than null; pointers are the fields docs/json.md
// allows to be null. Fields tagged json:"-" feed only the human rendering.
type Repo struct {
	Schema                         string       `json:"schema"`
	Coordinate                     Coordinate   `json:"coordinate"`
	SelectedMaintainer             string       `json:"selected_maintainer"`
	People                                      // lead_maintainer ... moderators
	PendingHistoryAcknowledgements []PendingAck `json:"pending_history_acknowledgements"`
	Health                         []Finding    `json:"health"`
	RecommendedCoordinate          *string      `json:"recommended_coordinate"`
	FollowLeadCommand              *string      `json:"follow_lead_command"`
	Lifecycle                      Lifecycle    `json:"lifecycle"`
	State                          *State       `json:"state"`
	Relays                         []Relay      `json:"relays"`
	Complete                       bool         `json:"complete"`

	// Meta, Offline and Viewer feed only the human rendering: the
	// announcement's metadata, whether the cache alone answered, and the
	// signed-in user's npub ("" for nobody).
	Meta    Metadata `json:"-"`
	Offline bool     `json:"-"`
	Viewer  string   `json:"-"`
	// Names are the shown people's profile names (human output; JSON
	// carries them on each person object).
	Names Names `json:"-"`
	// Shown are the commands the human output's pending rows already
	// give (command lines): a health finding with one of them is not
	// listed a second time.
	Shown map[string]bool `json:"-"`
}

type Coordinate struct {
	Kind       int    `json:"kind"`
	Pubkey     string `json:"pubkey"`
	Npub       string `json:"npub"`
	Identifier string `json:"identifier"`
	Naddr      string `json:"naddr"`
}

type Member struct {
	Npub   string `json:"npub"`
	Pubkey string `json:"pubkey"`
	Status string `json:"status"` // confirmed | invited
	// Name is the person's self-declared profile name and NIP05 their
	// verified NIP-05 address; null when unknown.
	Name  *string `json:"name"`
	NIP05 *string `json:"nip05"`
}

type PendingAck struct {
	Npub       string `json:"npub"`
	Transition string `json:"transition"` // start | end
	Time       int64  `json:"time"`
	Command    string `json:"command"`

	// Author is the npub of whose announcement lacks it (human output only).
	Author string `json:"-"`
	// Moderator: the transition is of a moderator (o) interval, not of
	// maintainership (human output only).
	Moderator bool `json:"-"`
}

type Finding struct {
	Severity string  `json:"severity"` // error | warning
	Code     string  `json:"code"`
	Author   *string `json:"author"` // npub, null when the finding concerns no one author
	Message  string  `json:"message"`
	Command  *string `json:"command"` // null when there is nothing to run
	// Actor is who can act on the finding (the npub that should run
	// Command, or ActorAnyMaintainer); ActorIsMaintainer is whether that is
	// a current maintainer (finding_actor.go).
	Actor             string `json:"actor"`
	ActorIsMaintainer bool   `json:"actor_is_maintainer"`
	// Text is Message as parts (graph.Finding.Text): the people it names
	// are values the human renderer names. Not in JSON.
	Text suggest.Block `json:"-"`
	// Suggested is Command as a value, for Actor to run (nil when there is
	// nothing to run or the command was built as text). Not in JSON.
	Suggested *suggest.Command `json:"-"`
	// Pasted is Command with the reader's --repo, --relay and (for their
	// own command) --home, as human output prints it (render.PasteFindings);
	// "" prints Command. Not in JSON, which keeps the bare command.
	Pasted string `json:"-"`
}

// MessageText is the message as parts: Text while it says Message, else
// Message as plain text.
func (f Finding) MessageText() suggest.Block {
	if f.Text != nil && f.Text.String() == f.Message {
		return f.Text
	}
	return suggest.Text(f.Message)
}

type Lifecycle struct {
	Status string  `json:"status"` // active | archived | deleted | restarted
	Actor  *string `json:"actor"`  // npub; null while active
	Time   *int64  `json:"time"`   // unix seconds; null while active
}

type State struct {
	EventID string            `json:"event_id"`
	Author  string            `json:"author"`
	Head    string            `json:"head"`
	Refs    map[string]string `json:"refs"` // encoding/json sorts map keys: stable order
}

type Relay struct {
	URL    string `json:"url"`
	Status string `json:"status"` // ok | closed | failed | timeout
	Events int    `json:"events"`

	// Reason is why a relay closed or failed (human output only).
	Reason string `json:"-"`
	// Dropped counts events the relay sent that failed verification (id,
	// signature or filter); human output only, roster.repo/v2 has no field.
	Dropped int `json:"-"`
	// Forged are ids of events the relay served with a signature that does
	// not verify (relaypool.RelayReport.Forged, at most MaxForged; another
	// relay's valid copy still counted); omitted when none.
	Forged []string `json:"forged,omitempty"`
}

// Metadata is the repository's descriptive fields (graph.RepositoryData).
type Metadata struct {
	Name, Description string
	Clone, Web        []string
	Relays            []string
	Hashtags          []string
	EUC               string // earliest unique commit
}

// People are the lead and membership fields that roster.repo/v2,
// roster.mutation/v2 and a mutation preview's before/after share, in order.
type People struct {
	LeadMaintainer *string  `json:"lead_maintainer"`
	LeadSource     string   `json:"lead_source"`
	LeadPath       []string `json:"lead_path"`
	Maintainers    []Member `json:"maintainers"`
	Moderators     []Member `json:"moderators"`
}

// MutationSchema is the JSON schema of every membership command's result.
const MutationSchema = "roster.mutation/v2"
