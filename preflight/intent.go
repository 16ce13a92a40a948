package preflight

import "fmt"

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
}

// Command renders the intent as the roster command line that expresses it.
func (in Intent) Command() string {
	c := ""
	switch in.Action {
	case ActAdd, ActRemove, ActAcknowledge:
		c = fmt.Sprintf("roster repo edit --%s %s", in.Action, npub(in.Subject))
	case ActLead:
		c = fmt.Sprintf("roster repo edit --lead-maintainer %s", npub(in.Lead))
	case ActFix:
		c = "roster repo edit --fix-maintainers"
	case ActAccept:
		c = "roster repo accept"
	case ActLeave:
		c = "roster repo leave"
	case ActFollowLead:
		c = "roster repo follow-lead"
	}
	if in.Action != ActLead && in.Lead != "" {
		c += " --lead-maintainer " + npub(in.Lead)
	}
	if in.NoLead {
		c += " --no-lead-maintainer"
	}
	if in.Force {
		c += " --force"
	}
	return c
}

// membershipChange reports whether the intent adds or removes a relationship,
// the two actions that carry a governance choice.
func (in Intent) membershipChange() bool { return in.Action == ActAdd || in.Action == ActRemove }
