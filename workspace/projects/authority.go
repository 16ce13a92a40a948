package projects

import "fmt"

// Home-channel roles that confer Project authority (nip-pc.md "Project Change
// Command": "an active owner or admin of the Project's current, active home
// channel").
const (
	RoleOwner = "owner"
	RoleAdmin = "admin"
)

// ChannelStanding is what the current home channel says about one actor.
type ChannelStanding struct {
	// Live is false when the channel is missing, archived or deleted: such
	// channels grant no authority.
	Live bool
	// Roles are the actor's current roles; a removed member has none.
	Roles []string
}

// Authorize decides whether actor may change the related channels of the
// project owned by owner with home channel home (empty when none). The owner
// always may; anyone else only as an active owner or admin of a live home
// channel. It returns a *Refusal naming who may make the change.
// Delegation and channel created_by confer nothing, so they are not inputs.
func Authorize(actor, owner, home string, standing ChannelStanding) error {
	if actor == owner {
		return nil
	}
	if home == "" {
		return &Refusal{Code: "not-authorized", Msg: fmt.Sprintf(
			"%s may not change this project: it has no home channel, so only its owner %s may change its related channels", actor, owner)}
	}
	if standing.Live {
		for _, r := range standing.Roles {
			if r == RoleOwner || r == RoleAdmin {
				return nil
			}
		}
	}
	why := fmt.Sprintf("%s is not an owner or admin of it", actor)
	if !standing.Live {
		why = "that channel is missing, archived or deleted"
	}
	return &Refusal{Code: "not-authorized", Msg: fmt.Sprintf(
		"%s may not change this project: only its owner %s or an active owner or admin of its home channel %s may change its related channels, and %s",
		actor, owner, home, why)}
}
