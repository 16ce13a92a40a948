package groups

import (
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// Buzz's relay writes a member's roles as separate ["role", r] tags beside
// the p tag. roster reads them in 39001 and 39002 where the pairing is
// unambiguous: role tags directly after a p tag (or after a role tag that
// is) belong to it; a role tag after any other tag, or before the first p,
// belongs to no one. 39003's role tags stay the supported-role list.
func TestBuzzSeparateRoleTagsPairWithThePTagTheyFollow(t *testing.T) {
	alice, bob := pub(t, aliceSK), pub(t, bobSK)
	carol := pub(t, strings.Repeat("04", 32))
	st := Build(gid, pub(t, relaySK), []*nostr.Event{
		signed(t, relaySK, 39000, 10, nostr.Tags{{"d", gid}, {"name", "Buzz"}}),
		signed(t, relaySK, 39001, 10, nostr.Tags{{"d", gid}, {"role", "stray"},
			{"p", alice}, {"role", "owner"}, {"role", "admin"},
			{"p", bob, "admin"}, {"role", "moderator"},
			{"client", "buzz"}, {"role", "orphan"}}),
		signed(t, relaySK, 39002, 10, nostr.Tags{{"d", gid}, {"p", alice}, {"role", "owner"}, {"p", bob}, {"p", carol}, {"role", "member-role"}}),
		signed(t, relaySK, 39003, 10, nostr.Tags{{"d", gid}, {"role", "owner", "everything"}, {"role", "admin"}}),
	})
	if r := st.RolesOf(alice); !slices.Equal(r, []string{"owner", "admin"}) {
		t.Errorf("alice's roles %v, want the two role tags after her p tag", r)
	}
	if r := st.RolesOf(bob); !slices.Equal(r, []string{"admin", "moderator"}) {
		t.Errorf("bob's roles %v, want the p tag's role and the role tag after it", r)
	}
	for _, a := range st.Admins {
		if slices.Contains(a.Roles, "stray") || slices.Contains(a.Roles, "orphan") {
			t.Errorf("an unpaired role tag was given to %s: %v", a.Pubkey, a.Roles)
		}
	}
	// The 39002's roles count only for someone the 39001 does not list.
	if r := st.RolesOf(carol); !slices.Equal(r, []string{"member-role"}) {
		t.Errorf("carol's roles %v, from the 39002", r)
	}
	if len(st.Members) != 3 || len(st.Roles) != 2 || st.Roles[0] != (Role{Name: "owner", Description: "everything"}) {
		t.Errorf("members %v, supported roles %v", st.Members, st.Roles)
	}
	m := MembersOf(st)
	if len(m) != 3 || !slices.Equal(m[2].Roles, []string{"member-role"}) || !slices.Equal(m[0].Roles, []string{"owner", "admin"}) {
		t.Errorf("members %+v", m)
	}
}
