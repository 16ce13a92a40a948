package interop

import (
	"fmt"
	"strings"
	"testing"
)

// ngitRepo is how the scenarios describe one ngit-written announcement
// (tools.mjs builds the tags in ngit's order and signs with nostr-tools).
type ngitRepo struct {
	by          person
	created     int64
	maintainers []person // the legacy tag; ngit always lists the author too
	roles       [][]string
}

func (a ngitRepo) draft(id string) map[string]any {
	var ms []string
	for _, p := range a.maintainers {
		ms = append(ms, p.pk)
	}
	return map[string]any{
		"sk": a.by.sk, "created_at": a.created,
		"ngit_announcement": map[string]any{
			"identifier": id, "name": "Interop " + id, "description": "ngit-shaped",
			"euc":         strings.Repeat("e", 40),
			"clone":       []string{"https://git.example.invalid/" + id + ".git"},
			"web":         []string{"https://git.example.invalid/" + id},
			"relays":      []string{"wss://relay.example.invalid"},
			"maintainers": ms,
			"hashtags":    []string{"interop"},
			"unknown":     a.roles,
		},
	}
}

// role is a role record [letter, pubkey, bounds...].
func role(letter string, who person, bounds ...string) []string {
	return append([]string{letter, who.pk}, bounds...)
}

// The read scenarios of maintainers.md for what ngit users publish, signed
// by nostr-tools exactly as ngit lays the tags out: roster resolves each as
// the spec says, on our relay, on an independent one, and on both.
func TestRosterResolvesAnnouncementsSignedByNostrTools(t *testing.T) {
	t.Parallel()
	oid := strings.Repeat("c0", 20)
	tagOID := strings.Repeat("7a", 20)
	cases := []struct {
		name     string
		selected person
		repos    []ngitRepo
		lead     string // name, "" = null
		source   string
		members  map[string]string
		path     []string
	}{
		{
			name: "sole maintainer", selected: alice,
			repos: []ngitRepo{{by: alice, created: 100, maintainers: []person{alice}}},
			lead:  "alice", source: "implicit_sole",
			members: map[string]string{"alice": "confirmed"}, path: []string{"alice"},
		},
		{
			name: "two legacy maintainers listing each other", selected: alice,
			repos: []ngitRepo{
				{by: alice, created: 100, maintainers: []person{alice, bob}},
				{by: bob, created: 100, maintainers: []person{bob, alice}},
			},
			lead: "", source: "none",
			members: map[string]string{"alice": "confirmed", "bob": "confirmed"}, path: []string{"alice"},
		},
		{
			name: "three legacy maintainers with a unique vote winner", selected: bob,
			repos: []ngitRepo{
				{by: alice, created: 100, maintainers: []person{alice, bob, carol}},
				{by: bob, created: 100, maintainers: []person{bob, alice}},
				{by: carol, created: 100, maintainers: []person{carol, alice}},
			},
			lead: "alice", source: "legacy_inferred",
			members: map[string]string{"alice": "confirmed", "bob": "confirmed", "carol": "confirmed"}, path: []string{"bob"},
		},
		{
			// Role records that ngit copies through as unknown tags after
			// its own: the lead, an accepted co-maintainer, and one whose
			// follow-lead copied the other's interval with defer.
			name: "role-aware with M, m and defer copies", selected: carol,
			repos: []ngitRepo{
				{by: alice, created: 300, maintainers: []person{alice, bob, carol},
					roles: [][]string{role("M", alice), role("m", bob, "200"), role("m", carol, "150")}},
				{by: bob, created: 200, maintainers: []person{bob, alice},
					roles: [][]string{role("M", alice, "200"), role("m", bob, "200")}},
				{by: carol, created: 400, maintainers: []person{carol, alice},
					roles: [][]string{role("M", alice, "150"), role("m", carol, "150"), role("m", bob, "200", "defer")}},
			},
			lead: "alice", source: "explicit",
			members: map[string]string{"alice": "confirmed", "bob": "confirmed", "carol": "confirmed"}, path: []string{"carol", "alice"},
		},
		{
			name: "role-aware invitation not yet accepted", selected: alice,
			repos: []ngitRepo{
				{by: alice, created: 300, maintainers: []person{alice, bob},
					roles: [][]string{role("M", alice), role("m", bob, "300")}},
			},
			lead: "alice", source: "explicit",
			members: map[string]string{"alice": "confirmed", "bob": "invited"}, path: []string{"alice"},
		},
	}
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			relays := s.relays(t)
			// Every case's events in one nostr-tools run (each case has its
			// own identifier, so one case's events are not another's):
			// starting node and loading nostr-tools costs about a second,
			// once per setup instead of once per case.
			var drafts []map[string]any
			for i, c := range cases {
				id := fmt.Sprintf("repo-%d", i)
				for _, a := range c.repos {
					drafts = append(drafts, a.draft(id))
				}
				// The state as ngit writes it: HEAD, a branch, an annotated
				// tag and its peeled commit.
				drafts = append(drafts, map[string]any{"sk": c.repos[0].by.sk, "created_at": 500, "ngit_state": map[string]any{
					"identifier": id, "head": "main",
					"refs": map[string]string{"refs/heads/main": oid, "refs/tags/v1": tagOID, "refs/tags/v1^{}": oid},
				}})
			}
			node(t, "publish", map[string]any{"relays": relays, "events": drafts}, nil)
			for i, c := range cases {
				id := fmt.Sprintf("repo-%d", i)
				res, m := run{Home: t.TempDir()}.ok(t, append([]string{"repo", "--json", "--timeout", "10s", "--repo", c.selected.naddr(id)}, relayFlags(relays)...)...)
				var lead string
				if m["lead_maintainer"] != nil {
					lead = nameOf(m["lead_maintainer"])
				}
				if lead != c.lead || m["lead_source"] != c.source {
					t.Errorf("%s: lead %q (%v), want %q (%s)", c.name, lead, m["lead_source"], c.lead, c.source)
				}
				if got := statuses(t, m["maintainers"]); fmt.Sprint(got) != fmt.Sprint(c.members) {
					t.Errorf("%s: maintainers %v, want %v", c.name, got, c.members)
				}
				var path []string
				for _, p := range m["lead_path"].([]any) {
					path = append(path, nameOf(p))
				}
				if fmt.Sprint(path) != fmt.Sprint(c.path) {
					t.Errorf("%s: lead_path %v, want %v", c.name, path, c.path)
				}
				if m["complete"] != true {
					t.Errorf("%s: complete %v, relays %v", c.name, m["complete"], m["relays"])
				}
				st, _ := m["state"].(map[string]any)
				refs, _ := st["refs"].(map[string]any)
				if st["head"] != "refs/heads/main" || refs["refs/heads/main"] != oid || refs["refs/tags/v1"] != tagOID || refs["refs/tags/v1^{}"] != oid {
					t.Errorf("%s: state %v", c.name, m["state"])
				}
				human, _ := run{Home: t.TempDir()}.ok(t, append([]string{"repo", "--timeout", "10s", "--repo", c.selected.naddr(id)}, relayFlags(relays)...)...)
				decodePrinted(t, id, res, human)
			}
		})
	}
}
