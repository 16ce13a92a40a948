package graph

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// Alice led Bob and Carol, then pointed to Bob (her self-M ended at 400,
// every other current role became a defer copy). handoverWorld returns
// Alice's and Carol's announcements plus Bob's prepared lead announcement
// with the given roster records.
func handoverWorld(t *testing.T, bobRoster ...[]string) []*nostr.Event {
	tags := append([][]string{{"M", "<alice>", "200", "350"}, {"m", "<bob>", "200", "350"}, {"M", "<bob>", "350"}, {"m", "<alice>", "350"}}, bobRoster...)
	return []*nostr.Event{
		ann(t, "bob", 350, tags...),
		ann(t, "alice", 400, []string{"M", "<alice>", "0", "400"}, []string{"m", "<alice>", "400"}, []string{"M", "<bob>", "400"},
			[]string{"m", "<bob>", "200", "defer"}, []string{"m", "<carol>", "300", "defer"}, []string{"maintainers", "<alice>", "<bob>"}),
		ann(t, "carol", 300, []string{"M", "<alice>", "300"}, []string{"m", "<carol>", "300"}, []string{"maintainers", "<alice>", "<carol>"}),
	}
}

// "Pending. A pointer target has not accepted, its announcement is missing,
// or a handover has not yet established the target's complete active
// roster." The old lead's handover hands every current relationship to the
// target as a defer copy ("Co-maintainer defer histories cannot cover the
// omission because they never authorize their subjects"), so a target
// roster that neither lists nor ends Carol has not established the
// complete roster: the walk through that handover is pending and seeds no
// authority ("Once resolution follows a valid active M, a missing
// announcement, multiple active targets, or a cycle fails closed").
func TestHandoverWithoutCompleteTargetRosterIsPending(t *testing.T) {
	evts := handoverWorld(t) // Bob's roster omits Carol
	for _, from := range []string{"alice", "carol"} {
		r := resolve(t, from, evts...)
		if r.LeadSource != LeadPending || r.Lead != "" || len(r.Component) != 0 || r.AuthorizedNow(pk("bob"), ActionState) {
			t.Fatalf("from %s: %s lead %q component %v, want pending with no authority", from, r.LeadSource, r.Lead, r.Component)
		}
		if last := r.LeadPath[len(r.LeadPath)-1]; last != pk("bob") {
			t.Fatalf("from %s: path %v must end at the target", from, r.LeadPath)
		}
		f := hasCode(r, CodeLeadPending, "bob")
		if f == nil || !strings.Contains(f.Message, "complete active roster") || !strings.Contains(f.Message, Npub(pk("carol"))) {
			t.Fatalf("from %s: finding %+v must name the missing person", from, f)
		}
		if len(r.HandoverMissing) != 1 || r.HandoverMissing[0] != pk("carol") {
			t.Fatalf("from %s: HandoverMissing %v", from, r.HandoverMissing)
		}
		if commandText(f.Command) != CommandAddMaintainer(pk("carol")).String() {
			t.Fatalf("from %s: command %q", from, f.Command)
		}
	}
	// Bob's own coordinate is not a handover: his roster is what it is.
	if r := resolve(t, "bob", evts...); r.LeadSource != LeadExplicit || r.Confirmed(pk("carol")) || !r.Confirmed(pk("alice")) {
		t.Fatalf("from bob: %s %v", r.LeadSource, r.Maintainers)
	}
}

// The roster is established when the target lists Carol (confirmed or
// invited), ended her assignment with a numeric boundary, or Carol left or
// deleted her announcement; an active third-party edge that keeps her
// confirmed also loses nobody.
func TestHandoverTargetRosterCoversEveryCurrentRelationship(t *testing.T) {
	cases := map[string][]*nostr.Event{
		"target lists carol":   handoverWorld(t, []string{"m", "<carol>", "300"}),
		"target ended carol":   handoverWorld(t, []string{"m", "<carol>", "300", "450"}),
		"target invites carol": handoverWorld(t, []string{"m", "<carol>", "500"}),
		"carol left":           append(handoverWorld(t)[:2], ann(t, "carol", 450, []string{"M", "<alice>", "300"}, []string{"m", "<carol>", "300", "450"})),
		"carol deleted":        append(handoverWorld(t)[:2], del(t, "carol", 450, []string{"a", "30617:<carol>:" + testID})),
	}
	// Alice's handover announcement still actively assigns Carol (a
	// third-party edge), so Carol stays confirmed and nobody is lost.
	cases["alice still assigns carol"] = []*nostr.Event{
		handoverWorld(t)[0],
		ann(t, "alice", 400, []string{"M", "<alice>", "0", "400"}, []string{"m", "<alice>", "400"}, []string{"M", "<bob>", "400"},
			[]string{"m", "<carol>", "300"}, []string{"maintainers", "<alice>", "<bob>", "<carol>"}),
		handoverWorld(t)[2],
	}
	for name, evts := range cases {
		r := resolve(t, "alice", evts...)
		if r.LeadSource != LeadExplicit || r.Lead != pk("bob") || !r.Confirmed(pk("alice")) {
			t.Errorf("%s: %s lead %q %v, want the explicit lead bob", name, r.LeadSource, r.Lead, r.Maintainers)
		}
	}
}

// "Once Alice actively covers every third-party subject ...": the lead
// covers a subject when its own announcement actively lists them in the
// role the other assignment gives. A maintainer assignment needs an active
// M or m (the lead's o would leave them a moderator only); a moderator
// assignment any active role. Defer copies, ended and unparseable records
// cover nothing; the maintainers tag counts only without indexed roles.
func TestLeadCoversIsTheLeadsOwnActiveRoleForTheSubject(t *testing.T) {
	cases := []struct {
		name      string
		tags      [][]string
		maint, mo bool // covers an m assignment, an o assignment
	}{
		{"active m", [][]string{{"M", "<alice>"}, {"m", "<carol>", "300"}}, true, true},
		{"active M", [][]string{{"M", "<alice>"}, {"M", "<carol>"}}, true, true},
		{"active o only", [][]string{{"M", "<alice>"}, {"o", "<carol>", "300"}}, false, true},
		{"defer copy", [][]string{{"M", "<alice>"}, {"m", "<carol>", "300", "defer"}, {"o", "<carol>", "300", "defer"}}, false, false},
		{"ended", [][]string{{"M", "<alice>"}, {"m", "<carol>", "300", "400"}, {"o", "<carol>", "300", "400"}}, false, false},
		{"unparseable", [][]string{{"M", "<alice>"}, {"m", "<carol>", "x"}, {"o", "<carol>", "defer", "1"}}, false, false},
		{"compatibility tag beside indexed roles", [][]string{{"M", "<alice>"}, {"maintainers", "<alice>", "<carol>"}}, false, false},
		{"legacy listing without indexed roles", [][]string{{"maintainers", "<alice>", "<carol>"}}, true, true},
		{"someone else", [][]string{{"M", "<alice>"}, {"m", "<dave>"}, {"o", "<dave>"}}, false, false},
	}
	for _, c := range cases {
		a := parsed(t, ann(t, "alice", 500, c.tags...))
		if got := LeadCovers(a, RoleMaint, pk("carol")); got != c.maint {
			t.Errorf("%s: covers m assignment = %v, want %v", c.name, got, c.maint)
		}
		if got := LeadCovers(a, RoleModerator, pk("carol")); got != c.mo {
			t.Errorf("%s: covers o assignment = %v, want %v", c.name, got, c.mo)
		}
	}
	if LeadCovers(nil, RoleMaint, pk("carol")) {
		t.Error("a missing lead announcement covers nobody")
	}
}
