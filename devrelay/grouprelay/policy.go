package grouprelay

import (
	"fmt"
	"slices"
	"strings"

	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/projects"
)

// RoleModerator is the reference relay's third role: it deletes events and
// creates invite codes, nothing else.
const RoleModerator = "moderator"

// KindDeleteEvent is the 9005 delete-event moderation kind.
const KindDeleteEvent = groups.KindDeleteEvent

// rolePolicy is what each role this relay gives meaning to may send
// (nip-29.md leaves "what each role is capable of" to the relay). Beyond the
// table, only an owner may grant, change or take the owner role, remove an
// owner, or delete the group; the relay's own key may do everything.
var rolePolicy = []struct {
	name, description string
	kinds             []int
}{
	{projects.RoleOwner, "full control: everything an admin may do, plus giving or taking the owner role, removing an owner and deleting the group (kind 9008); also full control of projects whose home channel it is",
		[]int{KindPutUser, KindRemoveUser, KindEditMetadata, KindDeleteEvent, KindDeleteGroup, KindCreateInvite}},
	{projects.RoleAdmin, "adds and removes members other than owners and gives them the admin or moderator role (kinds 9000, 9001), edits the metadata (9002), deletes events (9005), creates invite codes (9009); also changes projects whose home channel it is",
		[]int{KindPutUser, KindRemoveUser, KindEditMetadata, KindDeleteEvent, KindCreateInvite}},
	{RoleModerator, "deletes events (kind 9005) and creates invite codes (9009)",
		[]int{KindDeleteEvent, KindCreateInvite}},
}

// may reports whether pubkey (or the relay key, master) may send kind in g,
// and if not, the refusal's reason (without the prefix).
func (g *group) may(pubkey string, master bool, kind int) (bool, string) {
	if master {
		return true, ""
	}
	roles := g.members[pubkey]
	var able []string
	for _, r := range rolePolicy {
		if !slices.Contains(r.kinds, kind) {
			continue
		}
		if slices.Contains(roles, r.name) {
			return true, ""
		}
		able = append(able, r.name)
	}
	who := "you hold no role in group " + g.id
	if _, member := g.members[pubkey]; !member {
		who = "you are not a member of group " + g.id
	} else if len(roles) > 0 {
		who = fmt.Sprintf("your roles in group %s (%s) do not allow it", g.id, strings.Join(roles, ", "))
	}
	return false, fmt.Sprintf("%s (kind %d) needs the role %s: %s", groups.StepName(kind), kind, strings.Join(able, " or "), who)
}
