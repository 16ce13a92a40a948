package preflight

import (
	"strings"

	"github.com/roster-cli/roster/suggest"
)

// Action is the one relationship change a command asks for.
type Action string

const (
	ActAdd         Action = "add-maintainer"
	ActRemove      Action = "remove-maintainer"
	ActLead        Action = "lead-maintainer" // --lead-maintainer alone: a lead declaration
	ActAcknowledge Action = "acknowledge-maintainer-change"
	ActFix         Action = "fix-maintainers"
	ActAccept      Action = "accept"
	ActLeave       Action = "leave"
	ActFollowLead  Action = "follow-lead"
	// Moderator relationships, one at a time, under the maintainers'
	// governance (maintainers.md "Moderators").
	ActAddModerator    Action = "add-moderator"
	ActRemoveModerator Action = "remove-moderator"
	ActAcceptModerator Action = "accept-moderator" // `repo accept --moderator`: an active self-o
	// ActMetadata is a metadata-only edit of the author's own announcement
	// (Intent.Metadata): never combined with a relationship change.
	ActMetadata Action = "edit-metadata"
	// ActRepair restores onto the author's current announcement the role
	// records a client that does not keep them dropped, from the last
	// complete version (Input.LastComplete): `roster repo repair`.
	ActRepair Action = "repair"
)

// Intent is what the user asked for, already decoded to 64-hex pubkeys.
type Intent struct {
	Action  Action
	Subject string // the pubkey named by --add/--remove/--acknowledge
	// Lead is --lead-maintainer: with ActLead it is the declaration itself; with
	// add/remove it is the governance choice accompanying the change.
	Lead   string
	NoLead bool // --no-lead-maintainer
	Force  bool // --force (state-only conflicts on add/accept; see StateComparison)
	// Rewind are the refs (--rewind, comma-separated so that an Intent stays
	// comparable) a --force may move back from, or remove from, the state
	// the repository resolves now although this checkout does not contain
	// its commit (forceRewinds).
	Rewind string
	// Metadata is the fields an ActMetadata edit replaces.
	Metadata *MetadataEdit
}

// Suggest is the intent as the roster command that expresses it.
func (in Intent) Suggest() suggest.Command {
	var w []string
	switch in.Action {
	case ActAdd, ActRemove, ActAcknowledge, ActAddModerator, ActRemoveModerator:
		w = []string{"repo", "edit", "--" + string(in.Action), npub(in.Subject)}
	case ActLead:
		w = []string{"repo", "edit", "--lead-maintainer", npub(in.Lead)}
	case ActFix:
		w = []string{"repo", "edit", "--fix-maintainers"}
	case ActAccept:
		w = []string{"repo", "accept"}
	case ActAcceptModerator:
		w = []string{"repo", "accept", "--moderator"}
	case ActLeave:
		w = []string{"repo", "leave"}
	case ActFollowLead:
		w = []string{"repo", "follow-lead"}
	case ActMetadata:
		w = append([]string{"repo", "edit"}, in.Metadata.flags()...)
	case ActRepair:
		w = []string{"repo", "repair"}
	}
	if in.Action != ActLead && in.Lead != "" {
		w = append(w, "--lead-maintainer", npub(in.Lead))
	}
	if in.NoLead {
		w = append(w, "--no-lead-maintainer")
	}
	if in.Force {
		w = append(w, "--force")
		for _, r := range in.Rewinds() {
			w = append(w, "--rewind", r)
		}
	}
	return suggest.Roster(w...)
}

// Rewinds are the refs of Rewind.
func (in Intent) Rewinds() []string {
	if in.Rewind == "" {
		return nil
	}
	return strings.Split(in.Rewind, ",")
}

// Command is the intent's command line, as people read it in a message.
func (in Intent) Command() string { return in.Suggest().Line() }

// membershipChange reports whether the intent adds or removes a maintainer
// or moderator relationship: the actions that carry a governance choice.
func (in Intent) membershipChange() bool {
	return in.Action == ActAdd || in.Action == ActRemove || in.moderatorChange()
}

// moderatorChange reports whether the intent adds or removes a moderator
// relationship: governed like a maintainer change, never a maintainer edge.
func (in Intent) moderatorChange() bool {
	return in.Action == ActAddModerator || in.Action == ActRemoveModerator
}
