package report

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// Mutation is roster.mutation/v2: the people fields of roster.repo/v2
// after the change, the preview (before/after, changes, replacement tags,
// simulation, state seam), what was published and what to do next.
type Mutation struct {
	Schema     string     `json:"schema"`
	Action     string     `json:"action"`
	Command    string     `json:"command"`
	DryRun     bool       `json:"dry_run"`
	Coordinate Coordinate `json:"coordinate"`
	// Target names the repository the write selected and why (target.go).
	Target                         *Target      `json:"target"`
	SelectedMaintainer             string       `json:"selected_maintainer"`
	People                                      // lead_maintainer ... moderators, as in roster.repo/v2
	PendingHistoryAcknowledgements []PendingAck `json:"pending_history_acknowledgements"`
	// NIP05Lookups are the pubkey arguments given as NIP-05 names and the
	// key each resolved to, before the preview was built.
	NIP05Lookups []NIP05Lookup         `json:"nip05_lookups"`
	Preview      *Preview              `json:"preview,omitempty"`
	Published    []string              `json:"published"`
	Relays       []relaypool.Delivered `json:"relays"`
	Verified     bool                  `json:"verified"`
	// StatePublished is the kind 30618 event the change published before
	// its announcement (--force, or the removal handoff); null otherwise.
	StatePublished *PublishedState `json:"state_published"`
	SwitchedTo     *string         `json:"switched_to"`
	// SwitchedRemotes are the remotes whose nostr:// URLs follow-lead moved
	// from the old coordinate to the lead's.
	SwitchedRemotes []string `json:"switched_remotes"`
	// Linked is the naddr repo accept set as git config nostr.repo in a
	// checkout that selected no coordinate; null otherwise.
	Linked   *string  `json:"linked"`
	Guidance []string `json:"guidance"`
	// Share is, for --add-maintainer, the repository's nostr:// URL with a
	// relay hint and the invitee's accept command; null otherwise.
	Share *Share `json:"share"`
	Error *Error `json:"error,omitempty"`

	// ResolvedAfter is the re-read after publishing, for advisories.
	ResolvedAfter *discovery.View `json:"-"`
	// Names are the shown people's profile names (human output).
	Names Names `json:"-"`
	// Advice is what Guidance prints, as values until the command renders
	// it with the user's selectors.
	Advice []suggest.Guidance `json:"-"`
}

// PublishedState is a state event a membership change published first.
type PublishedState struct {
	EventID   string `json:"event_id"`
	Reason    string `json:"reason"` // "force" or "handoff"
	Forced    bool   `json:"forced"` // state replacement was explicitly forced
	CreatedAt int64  `json:"created_at"`
	// Changes are the refs it changed against the state resolved before
	// the change (empty for a handoff, which keeps them).
	Changes []preflight.RefAction `json:"changes"`
	// Relays is what each relay said about it.
	Relays []relaypool.Delivered `json:"relays"`
}

// NIP05Lookup is one NIP-05 name and the key its domain lists for it.
type NIP05Lookup struct {
	Name string `json:"name"`
	Npub string `json:"npub"`
}

type Preview struct {
	Before  People                 `json:"before"`
	After   People                 `json:"after"`
	Changes []preflight.RoleChange `json:"changes"`
	// OtherTags are the tag differences Changes does not name.
	OtherTags  []preflight.TagEdit       `json:"other_tags"`
	Tags       nostr.Tags                `json:"tags"`
	CreatedAt  int64                     `json:"created_at"`
	Simulation Simulation                `json:"simulation"`
	State      preflight.StateComparison `json:"state"`
}

type Simulation struct {
	NewlyInvited          []string                   `json:"newly_invited"`
	NewlyConfirmed        []string                   `json:"newly_confirmed"`
	Lost                  []string                   `json:"lost"`
	InvitationsWithdrawn  []string                   `json:"invitations_withdrawn"`
	ModeratorsGained      []string                   `json:"moderators_gained"`
	ModeratorsLost        []string                   `json:"moderators_lost"`
	RemovedStaysConfirmed *bool                      `json:"removed_stays_confirmed,omitempty"`
	Imported              []string                   `json:"imported"`
	LeadChanged           bool                       `json:"lead_changed"`
	SelectedBefore        string                     `json:"selected_before"`
	SelectedAfter         string                     `json:"selected_after"`
	IdentityChanges       []preflight.IdentityChange `json:"identity_changes"`
	// Confirmation (add only): invitation, expected, or standing-acceptance.
	Confirmation *preflight.Confirmation `json:"confirmation,omitempty"`
}

type Error struct {
	Code     string         `json:"code"`
	Message  string         `json:"message"`
	Details  map[string]any `json:"details"`
	Commands []string       `json:"commands"`
}

// NewMutation fills the people fields from r (the view after the
// change when there is a plan, the current view for a refusal).
func NewMutation(v *discovery.View, plan *preflight.Plan, dryRun bool) *Mutation {
	r := v.Resolution
	if plan != nil {
		r = plan.After
	}
	c := v.Coordinate()
	out := &Mutation{Schema: MutationSchema, DryRun: dryRun,
		Coordinate: Coordinate{Kind: c.Kind, Pubkey: c.Pubkey, Npub: graph.Npub(c.Pubkey),
			Identifier: c.Identifier, Naddr: gitstate.EncodeNaddr(c, nil)},
		SelectedMaintainer: graph.Npub(c.Pubkey), Published: []string{}, Relays: []relaypool.Delivered{}, SwitchedRemotes: []string{},
		PendingHistoryAcknowledgements: []PendingAck{}, Guidance: []string{}, NIP05Lookups: []NIP05Lookup{}}
	tg := TargetOf(v)
	out.Target = &tg
	out.Names = NamesOf(v.Profiles)
	out.People = PeopleOf(r, out.Names)
	for _, a := range r.PendingAcknowledgements {
		out.PendingHistoryAcknowledgements = append(out.PendingHistoryAcknowledgements, PendingAck{
			Npub: graph.Npub(a.Pubkey), Transition: a.Transition, Time: a.Time, Command: a.Command.String(), Moderator: a.Moderator})
	}
	if plan == nil {
		return out
	}
	out.Action, out.Command = string(plan.Intent.Action), plan.Intent.Command()
	sim := plan.Sim
	sj := Simulation{NewlyInvited: npubsOf(sim.NewlyInvited), NewlyConfirmed: npubsOf(sim.NewlyConfirmed), Lost: npubsOf(sim.Lost),
		InvitationsWithdrawn: npubsOf(sim.InvitationsWithdrawn), ModeratorsGained: npubsOf(sim.ModeratorsGained),
		ModeratorsLost: npubsOf(sim.ModeratorsLost), RemovedStaysConfirmed: sim.RemovedStaysConfirmed, Imported: []string{},
		LeadChanged:    sim.LeadBefore.Lead != sim.LeadAfter.Lead || sim.LeadBefore.Source != sim.LeadAfter.Source,
		SelectedBefore: gitstate.NostrURL(sim.SelectedBefore, nil), SelectedAfter: gitstate.NostrURL(sim.SelectedAfter, nil),
		IdentityChanges: sim.Identity, Confirmation: sim.Confirmation}
	for _, im := range sim.Imported {
		sj.Imported = append(sj.Imported, graph.Npub(im.Pubkey))
	}
	tags := plan.Tags
	if tags == nil {
		tags = nostr.Tags{}
	}
	changes := plan.Changes
	if changes == nil {
		changes = []preflight.RoleChange{}
	}
	others := plan.OtherTags
	if others == nil {
		others = []preflight.TagEdit{}
	}
	out.Preview = &Preview{Before: PeopleOf(plan.Before, out.Names), After: PeopleOf(plan.After, out.Names), Changes: changes, OtherTags: others, Tags: tags,
		CreatedAt: plan.CreatedAt, Simulation: sj, State: stateComparisonJSON(plan.State)}
	out.Advice = append(out.Advice, plan.Guidance...)
	return out
}

// stateComparisonJSON is the comparison with every list an array, never
// null.
func stateComparisonJSON(c preflight.StateComparison) preflight.StateComparison {
	for _, l := range []*[]string{&c.Checked, &c.NotChecked} {
		if *l == nil {
			*l = []string{}
		}
	}
	if c.Eligibility == nil {
		c.Eligibility = []preflight.EligibilityChange{}
	}
	for _, l := range []*[]preflight.RefAction{&c.Align, &c.ForceWould} {
		if *l == nil {
			*l = []preflight.RefAction{}
		}
	}
	return c
}
