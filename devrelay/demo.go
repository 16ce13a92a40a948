package devrelay

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/graph"
)

// DemoIdentifier is the identifier of the demo repository.
const DemoIdentifier = "roster-demo"

// DemoPerson is one participant of the demo repository. Their keys are
// derived from their names (sha256("roster-demo-<name>")), so they are public
// and the same on every run: never use them for anything real.
type DemoPerson struct {
	Name      string `json:"name"`
	Role      string `json:"role"`
	Pubkey    string `json:"pubkey"`
	Npub      string `json:"npub"`
	SecretKey string `json:"-"` // DemoKey(Name); never printed

}

// DemoInfo describes what SeedDemo published.
type DemoInfo struct {
	Coordinate graph.Coordinate `json:"coordinate"`
	Naddr      string           `json:"naddr"`
	NostrURL   string           `json:"nostr_url"`
	// CloneURL is the Git server the announcements advertise ("" with
	// the zero DemoGit: then no server serves the demo).
	CloneURL string       `json:"clone_url"`
	People   []DemoPerson `json:"people"`
	// Workspace, Project and Group are the relay-authoritative demo state.
	Workspace DemoWorkspace `json:"workspace"`
	Project   DemoProject   `json:"project"`
	Group     DemoGroup     `json:"group"`
	// Issue is carol's issue with a status by alice and one by dave after
	// his removal (DemoIssue).
	Issue  DemoIssue      `json:"issue"`
	Events []*nostr.Event `json:"-"`
	// Profiles are the people's kind 0 events.
	Profiles []*nostr.Event `json:"-"`
}

// DemoKey returns the demo secret key for name.
func DemoKey(name string) string {
	h := sha256.Sum256([]byte("roster-demo-" + name))
	return hex.EncodeToString(h[:])
}

// demoOID is a stable fake 40-hex Git object id.
func demoOID(label string) string {
	h := sha1.Sum([]byte("roster-demo-object-" + label))
	return hex.EncodeToString(h[:])
}

// SeedDemo publishes a realistic lead-shaped repository to r, using the role
// tag shapes of maintainers.md ("Current role tags", "Replicated role
// history", "Removal, replicated history, and reinvitation", "Moderators"):
//
//   - alice: lead (self-M), assigns bob, carol, dave (ended) and moderator erin;
//   - bob: confirmed co-maintainer (M alice + self-m), copies history with defer;
//   - carol: invited by alice, has not accepted (no announcement);
//   - dave: removed by alice, acknowledged it (ended self-m, M redirect kept);
//   - erin: confirmed moderator (alice's o + erin's self-o);
//   - a kind 30618 state by alice: HEAD, two branches, an annotated tag;
//   - carol's issue, with a status by alice and one by dave after his
//     removal (DemoIssue: check-event's two verdicts);
//
// and, through the relay's authorities (it must run the NIP-SW, NIP-PC and
// NIP-29 ones, as `roster dev relay` does):
//
//   - a NIP-29 group (DemoHomeChannel) alice owns, bob admin, carol and
//     erin members;
//   - alice's NIP-PC project (kind 30621 d=DemoProjectD) with that group as
//     its home channel and one related channel;
//   - alice's NIP-SW workspace, imported from her legacy channel-sections
//     blob: two sections, three assigned channels, bob granted mover.
//
// Every event is signed and created relative to now.
func SeedDemo(r *Relay, now time.Time) (DemoInfo, error) { return SeedDemoWith(r, now, DemoGit{}) }

// DemoGit points the demo at a real Git server: every announcement's
// clone URL becomes CloneURL and the state carries Refs (HEAD stays
// refs/heads/main). The zero value advertises file:// URLs of no existing
// repository and fake object ids: no Git server serves them, and checking
// them never leaves the machine.
type DemoGit struct {
	CloneURL string
	Refs     map[string]string
}

// SeedDemoWith is SeedDemo with the demo's Git objects on g's server.
func SeedDemoWith(r *Relay, now time.Time, g DemoGit) (DemoInfo, error) {
	day := int64(24 * 60 * 60)
	t0 := now.Unix()
	ts := func(daysAgo int64) string { return fmt.Sprint(t0 - daysAgo*day) }
	var (
		bobStart  = ts(60) // bob accepted alice's invitation
		daveStart = ts(40) // dave accepted
		daveEnd   = ts(10) // alice removed dave
		carolInv  = ts(3)  // alice invited carol
		erinStart = ts(30) // erin acknowledged the moderator role
	)
	names := []struct{ name, role string }{
		{"alice", "lead"}, {"bob", "co-maintainer"}, {"carol", "invited"},
		{"dave", "removed"}, {"erin", "moderator"},
	}
	info := DemoInfo{}
	pk := map[string]string{}
	for _, n := range names {
		sk := DemoKey(n.name)
		p, err := nostr.GetPublicKey(sk)
		if err != nil {
			return info, err
		}
		npub, _ := nip19.EncodePublicKey(p)
		pk[n.name] = p
		info.People = append(info.People, DemoPerson{Name: n.name, Role: n.role, Pubkey: p, Npub: npub, SecretKey: sk})
	}
	url := r.URL()
	clone := func(name string) string {
		if g.CloneURL != "" {
			return g.CloneURL
		}
		return "file:///nonexistent/roster-demo/" + name + ".git"
	}
	state := nostr.Tags{
		{"d", DemoIdentifier},
		{"HEAD", "ref: refs/heads/main"},
		{"refs/heads/main", demoOID("main")},
		{"refs/heads/release-1.x", demoOID("release-1.x")},
		{"refs/tags/v1.0.0", demoOID("tag-v1.0.0")},
		{"refs/tags/v1.0.0^{}", demoOID("release-1.x")},
	}
	if g.Refs != nil {
		state = nostr.Tags{{"d", DemoIdentifier}, {"HEAD", "ref: refs/heads/main"}}
		for _, k := range slices.Sorted(maps.Keys(g.Refs)) {
			state = append(state, nostr.Tag{k, g.Refs[k]})
		}
	}
	common := func(name string) nostr.Tags {
		return nostr.Tags{
			{"d", DemoIdentifier},
			{"r", demoOID("root-commit"), "euc"},
			{"name", "Roster demo"},
			{"description", "A demonstration repository served by `roster dev relay`"},
			{"clone", clone(name)},
			{"web", "https://git.example.org/" + name + "/roster-demo"},
			{"relays", url},
		}
	}
	with := func(tags nostr.Tags, more ...nostr.Tag) nostr.Tags { return append(tags, more...) }

	events := []struct {
		name string
		at   int64
		kind int
		tags nostr.Tags
	}{
		{"alice", t0 - 2*day, graph.KindAnnouncement, with(common("alice"),
			nostr.Tag{"M", pk["alice"]},
			nostr.Tag{"m", pk["bob"], bobStart},
			nostr.Tag{"m", pk["dave"], daveStart, daveEnd},
			nostr.Tag{"m", pk["carol"], carolInv},
			nostr.Tag{"o", pk["erin"], erinStart},
			nostr.Tag{"maintainers", pk["alice"], pk["bob"], pk["carol"]},
			nostr.Tag{"alt", "git repository: Roster demo"},
		)},
		{"bob", t0 - 9*day, graph.KindAnnouncement, with(common("bob"),
			nostr.Tag{"M", pk["alice"], bobStart},
			nostr.Tag{"m", pk["bob"], bobStart},
			nostr.Tag{"m", pk["dave"], daveStart, daveEnd},
			nostr.Tag{"o", pk["erin"], erinStart, "defer"},
			nostr.Tag{"maintainers", pk["alice"], pk["bob"]},
			nostr.Tag{"alt", "git repository: Roster demo"},
		)},
		{"dave", t0 - 8*day, graph.KindAnnouncement, with(common("dave"),
			nostr.Tag{"M", pk["alice"], daveStart},
			nostr.Tag{"m", pk["bob"], bobStart, "defer"},
			nostr.Tag{"m", pk["dave"], daveStart, daveEnd},
			nostr.Tag{"maintainers", pk["alice"]},
			nostr.Tag{"alt", "git repository: Roster demo"},
		)},
		{"erin", t0 - 30*day, graph.KindAnnouncement, with(common("erin"),
			nostr.Tag{"o", pk["erin"], erinStart},
			nostr.Tag{"maintainers"},
			nostr.Tag{"alt", "git repository: Roster demo"},
		)},
		{"alice", t0 - 3600, graph.KindState, state},
	}
	for _, e := range events {
		evt := &nostr.Event{Kind: e.kind, CreatedAt: nostr.Timestamp(e.at), Tags: e.tags}
		if err := evt.Sign(DemoKey(e.name)); err != nil {
			return info, err
		}
		if err := r.Publish(evt); err != nil {
			return info, fmt.Errorf("seeding the demo repository: %w", err)
		}
		info.Events = append(info.Events, evt)
	}
	// Each person's kind 0 profile, so roster shows them by name.
	for _, n := range names {
		content := fmt.Sprintf(`{"name":%q,"display_name":%q,"about":"roster demo: %s"}`, n.name, strings.ToUpper(n.name[:1])+n.name[1:], n.role)
		evt := &nostr.Event{Kind: 0, CreatedAt: nostr.Timestamp(t0 - 90*day), Tags: nostr.Tags{}, Content: content}
		if err := evt.Sign(DemoKey(n.name)); err != nil {
			return info, err
		}
		if err := r.Publish(evt); err != nil {
			return info, fmt.Errorf("seeding the demo profiles: %w", err)
		}
		info.Profiles = append(info.Profiles, evt)
	}
	info.Coordinate = graph.NewCoordinate(pk["alice"], DemoIdentifier)
	naddr, err := nip19.EncodeEntity(pk["alice"], graph.KindAnnouncement, DemoIdentifier, []string{url})
	if err != nil {
		return info, err
	}
	info.Naddr = naddr
	info.CloneURL = g.CloneURL
	info.NostrURL = "nostr://" + info.People[0].Npub + "/" + DemoIdentifier
	if err := seedIssue(r, t0, day, &info, pk); err != nil {
		return info, err
	}
	if err := seedSpaces(r, now, &info, pk); err != nil {
		return info, err
	}
	return info, nil
}
