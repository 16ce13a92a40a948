package groups

// Member is one person a relay's signed state names: in the 39002 member
// list, the 39001 admin list, or both.
type Member struct {
	Pubkey string   `json:"pubkey"`
	Roles  []string `json:"roles"`
	// Listed: the 39002 lists them. An admin the 39002 leaves out is still
	// shown (NIP-29: the 39002 may be partial or absent).
	Listed bool `json:"listed"`
}

// MembersOf is the 39002's members in its order, with their 39001 roles,
// followed by admins the 39002 does not list.
func MembersOf(st State) []Member {
	out := []Member{}
	seen := map[string]bool{}
	for _, p := range st.Members {
		if seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, Member{Pubkey: p, Roles: append([]string{}, st.RolesOf(p)...), Listed: true})
	}
	for _, a := range st.Admins {
		if !seen[a.Pubkey] {
			seen[a.Pubkey] = true
			out = append(out, Member{Pubkey: a.Pubkey, Roles: append([]string{}, a.Roles...)})
		}
	}
	return out
}
