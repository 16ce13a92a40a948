package projects

import (
	"strings"
	"testing"
)

func TestOwnerIsAlwaysAuthorized(t *testing.T) {
	owner := pub(t, ownerSK)
	for _, st := range []ChannelStanding{{}, {Live: false}, {Live: true}} {
		if err := Authorize(owner, owner, home, st); err != nil {
			t.Fatalf("owner refused: %v", err)
		}
	}
	if err := Authorize(owner, owner, "", ChannelStanding{}); err != nil {
		t.Fatalf("owner refused without home channel: %v", err)
	}
}

func TestActiveOwnerOrAdminOfLiveHomeChannelIsAuthorized(t *testing.T) {
	owner, actor := pub(t, ownerSK), pub(t, otherSK)
	for _, roles := range [][]string{{"admin"}, {"owner"}, {"moderator", "admin"}} {
		if err := Authorize(actor, owner, home, ChannelStanding{Live: true, Roles: roles}); err != nil {
			t.Errorf("roles %v refused: %v", roles, err)
		}
	}
}

func TestOtherRolesRemovedMembersAndDeadChannelsGrantNothing(t *testing.T) {
	owner, actor := pub(t, ownerSK), pub(t, otherSK)
	cases := map[string]ChannelStanding{
		"moderator":                 {Live: true, Roles: []string{"moderator"}},
		"role name is case-exact":   {Live: true, Roles: []string{"Admin"}},
		"removed member":            {Live: true},
		"admin of archived channel": {Live: false, Roles: []string{"admin"}},
	}
	for name, st := range cases {
		err := Authorize(actor, owner, home, st)
		if refusalCode(err) != "not-authorized" {
			t.Errorf("%s: %v", name, err)
			continue
		}
		// The refusal names who may make the change.
		if !strings.Contains(err.Error(), owner) || !strings.Contains(err.Error(), home) {
			t.Errorf("%s: refusal does not say who may: %v", name, err)
		}
	}
}

func TestProjectWithoutHomeChannelIsOwnerManaged(t *testing.T) {
	owner, actor := pub(t, ownerSK), pub(t, otherSK)
	err := Authorize(actor, owner, "", ChannelStanding{Live: true, Roles: []string{"admin"}})
	if refusalCode(err) != "not-authorized" || !strings.Contains(err.Error(), "only its owner "+owner) {
		t.Fatalf("got %v", err)
	}
}
