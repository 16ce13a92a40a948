package graph

import (
	"slices"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/suggest"
)

// One test per read-side "Required client invariant" of maintainers.md.
// Write-side invariants (force, join, recheck, preflight) belong to the
// preflight package.

func hasCode(r *Resolution, code, author string) *Finding {
	for i, f := range r.Health {
		if f.Code == code && (author == "" || f.Author == pk(author)) {
			return &r.Health[i]
		}
	}
	return nil
}

func resolveAs(t *testing.T, selected, viewer string, evts ...*nostr.Event) *Resolution {
	t.Helper()
	return Resolve(evts, sel(selected), 10_000, Options{Viewer: pk(viewer)})
}

// "A fresh one-person repository emits no role or maintainers tag."
func TestInvariantFreshOnePersonRepositoryNeedsNoRoleTags(t *testing.T) {
	r := resolve(t, "alice", ann(t, "alice", 100, []string{"name", "x"}))
	if r.LeadSource != LeadImplicitSole || r.Lead != pk("alice") || !r.Confirmed(pk("alice")) || len(r.Health) != 0 {
		t.Fatalf("fresh repository: %s %s health %v", r.Lead, r.LeadSource, r.Health)
	}
}

// "The normal first invitation materializes the inviter as M and invitee as
// m; supplying --no-lead-maintainer emits only m. A pending or conflicting
// lead path blocks instead of treating the flag as an override."
func TestInvariantFirstInvitationShapesResolve(t *testing.T) {
	lead := resolve(t, "alice", ann(t, "alice", 100, []string{"M", "<alice>"}, []string{"m", "<bob>", "100"}, []string{"maintainers", "<alice>", "<bob>"}))
	if lead.LeadSource != LeadExplicit || lead.Lead != pk("alice") || statusOf(lead, "bob") != StatusInvited {
		t.Fatalf("lead-shaped first invite: %s %v", lead.LeadSource, lead.Maintainers)
	}
	none := resolve(t, "alice", ann(t, "alice", 100, []string{"m", "<bob>", "100"}, []string{"maintainers", "<bob>"}))
	if none.LeadSource != LeadExplicitNone || none.Lead != "" || !none.Confirmed(pk("alice")) {
		t.Fatalf("no-lead first invite: %s %q", none.LeadSource, none.Lead)
	}
	pending := resolve(t, "alice", ann(t, "alice", 100, []string{"M", "<bob>"}, []string{"m", "<alice>"}, []string{"maintainers", "<alice>", "<bob>"}))
	if pending.LeadSource != LeadPending || hasCode(pending, CodeLeadPending, "") == nil || hasCode(pending, CodeLeadPending, "").Severity != SeverityError {
		t.Fatalf("pending path must be an error: %s %v", pending.LeadSource, pending.Health)
	}
}

// "Ngit's ordinary acceptance command records an active M naming the
// inviter and an active self-m ... A non-self lead M ending in defer is
// valid history but cannot satisfy acceptance; a self-m ending in defer is
// invalid and produces a health error."
func TestInvariantAcceptanceNeedsActiveLeadMAndSelfRole(t *testing.T) {
	alice := ann(t, "alice", 100, []string{"M", "<alice>"}, []string{"m", "<bob>", "100"}, []string{"maintainers", "<alice>", "<bob>"})
	ok := resolve(t, "alice", alice, ann(t, "bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}))
	if !ok.Confirmed(pk("bob")) {
		t.Fatal("canonical acceptance must confirm bob")
	}
	deferM := resolve(t, "alice", alice, ann(t, "bob", 200, []string{"M", "<alice>", "200", "defer"}, []string{"m", "<bob>", "200"}))
	if deferM.Confirmed(pk("bob")) || statusOf(deferM, "bob") != StatusInvited {
		t.Fatal("a lead M ending in defer must not satisfy acceptance")
	}
	selfDefer := resolveAs(t, "alice", "bob", alice, ann(t, "bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200", "defer"}))
	f := hasCode(selfDefer, CodeSelfDefer, "bob")
	if selfDefer.Confirmed(pk("bob")) || f == nil || f.Severity != SeverityError {
		t.Fatalf("self-defer must block bob with an error for bob: %v", selfDefer.Health)
	}
}

// "Discovering acceptance promptly shows the lead
// --acknowledge-maintainer-change and shows other co-maintainers repo
// follow-lead, without prompting. JSON returns the same actions as
// structured data."
func TestInvariantAcceptanceDiscoveryGuidesLeadAndCoMaintainers(t *testing.T) {
	alice := ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<bob>", "300"}, []string{"m", "<carol>", "100"}, []string{"maintainers", "<alice>", "<bob>", "<carol>"})
	bob := ann(t, "bob", 400, []string{"M", "<alice>", "400"}, []string{"m", "<bob>", "400"})
	carol := ann(t, "carol", 200, []string{"M", "<alice>", "100"}, []string{"m", "<carol>", "100"})
	asLead := resolveAs(t, "alice", "alice", alice, bob, carol)
	want := PendingAck{Author: pk("alice"), Pubkey: pk("bob"), Transition: TransitionStart, Time: 400, Command: CommandAcknowledge(pk("bob"))}
	if !slices.ContainsFunc(asLead.PendingAcknowledgements, func(p PendingAck) bool { return p.sameAs(want) }) {
		t.Fatalf("lead guidance missing: %+v", asLead.PendingAcknowledgements)
	}
	asCarol := resolveAs(t, "alice", "carol", alice, bob, carol)
	found := false
	for _, p := range asCarol.PendingAcknowledgements {
		if p.Author == pk("carol") && p.Pubkey == pk("bob") && p.Command.Equal(CommandFollowLead()) {
			found = true
		}
	}
	if !found {
		t.Fatalf("co-maintainer guidance missing: %+v", asCarol.PendingAcknowledgements)
	}
}

// "An externally authored active third-party m remains authoritative until
// the guarded repair converts it safely. Departure timing prefers an
// explicit signed role end, then a signed deletion request, then a clearly
// labelled observation estimate."
func TestInvariantDepartureTimingPrefersSignedEndThenDeletion(t *testing.T) {
	alice := ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<carol>", "100"}, []string{"maintainers", "<alice>", "<carol>"})
	left := resolve(t, "alice", alice, ann(t, "carol", 400, []string{"M", "<alice>", "100"}, []string{"m", "<carol>", "100", "350"}))
	e := historyOf(left, "carol", "m")
	if e == nil || e.Intervals[0].End != EndSigned || e.Intervals[0].EndTime != 350 {
		t.Fatalf("signed self end must close the interval: %+v", e)
	}
	carol := ann(t, "carol", 200, []string{"M", "<alice>", "100"}, []string{"m", "<carol>", "100"})
	deleted := resolve(t, "alice", alice, carol, del(t, "carol", 450, []string{"e", carol.ID}))
	e = historyOf(deleted, "carol", "m")
	if e == nil || e.Intervals[0].End != EndDeletion || e.Intervals[0].EndTime != 450 {
		t.Fatalf("deletion must supply the end: %+v", e)
	}
}

func historyOf(r *Resolution, alias, role string) *HistoryEntry {
	for i, e := range r.History {
		if e.Pubkey == pk(alias) && e.Role == role {
			return &r.History[i]
		}
	}
	return nil
}

// "The selected maintainer's history wins and omissions continue through
// the sibling NIP-34 distance and pubkey precedence."
func TestInvariantSelectedHistoryWinsAndOmissionsFallThrough(t *testing.T) {
	bob := ann(t, "bob", 300, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"m", "<dave>", "100", "350"})
	carol := ann(t, "carol", 300, []string{"M", "<alice>", "200"}, []string{"m", "<carol>", "200"}, []string{"m", "<dave>", "100", "300"})
	withRecord := ann(t, "alice", 400, []string{"M", "<alice>"}, []string{"m", "<bob>", "200"}, []string{"m", "<carol>", "200"}, []string{"m", "<dave>", "100", "250"})
	r := resolve(t, "alice", withRecord, bob, carol)
	if e := historyOf(r, "dave", "m"); e == nil || e.Source != pk("alice") || !e.Conflict || len(e.Copies) != 3 {
		t.Fatalf("selected record must win and keep conflicting copies: %+v", e)
	}
	omitted := ann(t, "alice", 400, []string{"M", "<alice>"}, []string{"m", "<bob>", "200"}, []string{"m", "<carol>", "200"})
	r = resolve(t, "alice", omitted, bob, carol)
	want := min(pk("bob"), pk("carol"))
	if e := historyOf(r, "dave", "m"); e == nil || e.Source != want {
		t.Fatalf("omission must fall through to the lowest-pubkey copy at equal distance: %+v", e)
	}
}

// "Active M and m have identical maintainer authority ... an active
// third-party m from any confirmed maintainer can extend the fixpoint ...
// A third-party defer history cannot. Explicit no-lead uses the reciprocal
// active-m fixpoint without a lead seed."
func TestInvariantMAndMHaveEqualAuthorityAndDeferCannotExtend(t *testing.T) {
	alice := ann(t, "alice", 100, []string{"M", "<alice>"}, []string{"m", "<bob>"})
	viaM := resolve(t, "alice", alice, ann(t, "bob", 100, []string{"M", "<alice>"}))
	viaMm := resolve(t, "alice", alice, ann(t, "bob", 100, []string{"m", "<alice>"}))
	if !viaM.Confirmed(pk("bob")) || !viaMm.Confirmed(pk("bob")) {
		t.Fatal("an active M or m back to a confirmed maintainer must confirm")
	}
	bobAssigns := ann(t, "bob", 100, []string{"M", "<alice>"}, []string{"m", "<bob>"}, []string{"m", "<carol>"})
	bobDefers := ann(t, "bob", 100, []string{"M", "<alice>"}, []string{"m", "<bob>"}, []string{"m", "<carol>", "50", "defer"})
	carol := ann(t, "carol", 100, []string{"m", "<bob>"}, []string{"m", "<carol>"})
	if r := resolve(t, "alice", alice, bobAssigns, carol); !r.Confirmed(pk("carol")) {
		t.Fatal("a confirmed co-maintainer's active third-party m must extend the fixpoint")
	}
	if r := resolve(t, "alice", alice, bobDefers, carol); r.Confirmed(pk("carol")) {
		t.Fatal("a defer copy must not extend the fixpoint")
	}
	leadless := resolve(t, "alice", ann(t, "alice", 100, []string{"m", "<alice>"}, []string{"m", "<bob>"}), ann(t, "bob", 100, []string{"m", "<alice>"}, []string{"m", "<bob>"}))
	if leadless.LeadSource != LeadExplicitNone || !leadless.Confirmed(pk("bob")) {
		t.Fatalf("explicit no-lead fixpoint: %s", leadless.LeadSource)
	}
}

// "Lead resolution starts at the selected coordinate, follows one active M
// per announcement, and terminates only at a confirmed active self-M. An
// active pointer can preserve a removed maintainer's coordinate redirect,
// but an M ending in defer cannot route. Different targets outside that
// path do not create a global conflict."
func TestInvariantLeadWalkFollowsOneActiveMToConfirmedSelfM(t *testing.T) {
	alice := ann(t, "alice", 400, []string{"M", "<alice>"}, []string{"m", "<bob>", "200"}, []string{"m", "<carol>", "300", "400"})
	bob := ann(t, "bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"})
	carolLeft := ann(t, "carol", 420, []string{"M", "<alice>", "300"}, []string{"m", "<carol>", "300", "400"})
	// Dave points elsewhere, outside the selected path.
	dave := ann(t, "dave", 100, []string{"M", "<erin>"})
	r := resolve(t, "carol", alice, bob, carolLeft, dave)
	if r.Lead != pk("alice") || !slices.Equal(r.LeadPath, []string{pk("carol"), pk("alice")}) || r.Confirmed(pk("carol")) {
		t.Fatalf("removed maintainer's redirect: lead %s path %v", r.Lead, r.LeadPath)
	}
	deferM := resolve(t, "bob", alice, ann(t, "bob", 200, []string{"M", "<alice>", "200", "defer"}, []string{"m", "<bob>", "200"}))
	if deferM.LeadSource == LeadExplicit {
		t.Fatal("a defer M must not route")
	}
}

// "Legacy listing-vote inference remains while the selected announcement is
// legacy, and active indexed M views still count as votes. Historical M
// records ending in defer do not. Selected indexed m without M expresses
// the no-lead choice."
func TestInvariantLegacyVoteInference(t *testing.T) {
	alice := ann(t, "alice", 100, []string{"maintainers", "<alice>", "<bob>", "<carol>"})
	bob := ann(t, "bob", 100, []string{"maintainers", "<bob>", "<alice>"})
	carolM := ann(t, "carol", 100, []string{"M", "<alice>"}, []string{"m", "<carol>"})
	carolDefer := ann(t, "carol", 100, []string{"M", "<alice>", "50", "defer"}, []string{"m", "<carol>"}, []string{"m", "<alice>"})
	if r := resolve(t, "alice", alice, bob, carolM); r.LeadSource != LeadLegacyInferred || r.Lead != pk("alice") {
		t.Fatalf("indexed M must vote: %s %s", r.LeadSource, r.Lead)
	}
	if r := resolve(t, "alice", alice, bob, carolDefer); r.LeadSource != LeadNone {
		t.Fatalf("a defer M must not vote: %s %s", r.LeadSource, r.Lead)
	}
	noLead := ann(t, "alice", 200, []string{"m", "<alice>"}, []string{"m", "<bob>"}, []string{"m", "<carol>"})
	if r := resolve(t, "alice", noLead, bob, carolM); r.LeadSource != LeadExplicitNone {
		t.Fatalf("selected indexed m without M is explicit none: %s", r.LeadSource)
	}
}

// "Every role-aware announcement's maintainers values equal exactly the
// subjects of its active M and m records, including invitations and
// excluding ended or defer records. Indexed roles win on disagreement. The
// author sees a warning ..."
func TestInvariantMaintainersProjectionIsExactActiveRoster(t *testing.T) {
	tags := [][]string{{"M", "<alice>"}, {"m", "<bob>"}, {"m", "<carol>", "100", "defer"}, {"m", "<dave>", "100", "200"}, {"o", "<erin>"}}
	good := ann(t, "alice", 300, append(tags, []string{"maintainers", "<alice>", "<bob>"})...)
	a, _ := ParseAnnouncement(good)
	if got := ExpectedProjection(a); !slices.Equal(got, sortedPks("alice", "bob")) {
		t.Fatalf("projection %v", got)
	}
	if r := resolveAs(t, "alice", "alice", good); hasCode(r, CodeProjectionMismatch, "") != nil {
		t.Fatal("a correct projection is healthy")
	}
	bad := ann(t, "alice", 300, append(tags, []string{"maintainers", "<alice>", "<carol>", "<dave>"})...)
	r := resolveAs(t, "alice", "alice", bad)
	f := hasCode(r, CodeProjectionMismatch, "alice")
	if f == nil || f.Severity != SeverityError || commandText(f.Command) != CommandFixMaintainers().String() {
		t.Fatalf("mismatch must be an error for its author with the fix command: %v", r.Health)
	}
	if r.Authorized(pk("carol"), ActionState, 300) || r.Authorized(pk("dave"), ActionState, 300) || statusOf(r, "bob") != StatusInvited {
		t.Fatal("indexed roles must win over the contradictory projection")
	}
	if f := hasCode(resolveAs(t, "alice", "bob", bad), CodeProjectionMismatch, "alice"); f == nil || f.Severity != SeverityWarning {
		t.Fatal("other viewers see a warning")
	}
}

func sortedPks(aliases ...string) []string {
	var out []string
	for _, a := range aliases {
		out = append(out, pk(a))
	}
	slices.Sort(out)
	return out
}

// "Every mutation preserves unrelated relationships, role intervals,
// replicated history, metadata, and unknown tags." The read side keeps
// what the write side must preserve: unknown tags in order and unparseable
// role records byte for byte.
func TestInvariantParsingKeepsUnknownTagsAndRawRecords(t *testing.T) {
	e := ann(t, "alice", 100, []string{"alt", "git repository: x"}, []string{"m", "<bob>", "soon"}, []string{"blossoms", "https://b"}, []string{"x-custom", "1", "2"})
	a, err := ParseAnnouncement(e)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Unknown) != 3 || a.Unknown[0][0] != "alt" || a.Unknown[1][0] != "blossoms" || a.Unknown[2][0] != "x-custom" {
		t.Fatalf("unknown tags %v", a.Unknown)
	}
	if len(a.Roles) != 1 || a.Roles[0].Valid || !slices.Equal(a.Roles[0].Raw, e.Tags[2]) || a.Roles[0].Index != 2 {
		t.Fatalf("malformed record must keep raw bytes and position: %+v", a.Roles)
	}
}

// "Removing a candidate from the lead roster removes them immediately when
// no other confirmed maintainer actively assigns them, even while their old
// self-m and lead M remain active. Their commands report the removal ...
// Until they do, that active acceptance makes a later add immediately
// confirming; after they end the self-role, a later invitation requires a
// new active start."
func TestInvariantLeadRemovalIsImmediateAndStandingAcceptanceReconfirms(t *testing.T) {
	bob := ann(t, "bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"m", "<carol>", "300", "defer"})
	carol := ann(t, "carol", 300, []string{"M", "<alice>", "300"}, []string{"m", "<carol>", "300"})
	removed := ann(t, "alice", 400, []string{"M", "<alice>"}, []string{"m", "<bob>", "200"}, []string{"m", "<carol>", "300", "400"})
	r := resolveAs(t, "alice", "carol", removed, bob, carol)
	f := hasCode(r, CodeRemovedByLead, "carol")
	if r.Confirmed(pk("carol")) || f == nil || f.Severity != SeverityError || commandText(f.Command) != CommandFollowLead().String() {
		t.Fatalf("removal must be immediate and reported to carol: %v", r.Health)
	}
	readded := ann(t, "alice", 500, []string{"M", "<alice>"}, []string{"m", "<bob>", "200"}, []string{"m", "<carol>", "300", "400", "500"})
	if !resolve(t, "alice", readded, bob, carol).Confirmed(pk("carol")) {
		t.Fatal("standing acceptance must reconfirm immediately")
	}
	carolLeft := ann(t, "carol", 450, []string{"M", "<alice>", "300"}, []string{"m", "<carol>", "300", "400"})
	if r := resolve(t, "alice", readded, bob, carolLeft); r.Confirmed(pk("carol")) || statusOf(r, "carol") != StatusInvited {
		t.Fatal("after an ended self-role a re-add is only an invitation")
	}
}

// "Removing one maintainer fails if that person remains confirmed through a
// different real relationship ... An active third-party m names its author
// and directs the lead to cover its subject, ask the author to run repo
// follow-lead" and "If another client does, every command warns both
// co-maintainer and lead."
func TestInvariantThirdPartyAssignmentRetainsSubjectAndWarnsBoth(t *testing.T) {
	alice := ann(t, "alice", 400, []string{"M", "<alice>"}, []string{"m", "<bob>", "200"}, []string{"m", "<carol>", "300", "400"})
	bob := ann(t, "bob", 300, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"m", "<carol>", "300"})
	carol := ann(t, "carol", 300, []string{"M", "<alice>", "300"}, []string{"m", "<carol>", "300"})
	asLead := resolveAs(t, "alice", "alice", alice, bob, carol)
	if !asLead.Confirmed(pk("carol")) {
		t.Fatal("bob's active edge must retain carol")
	}
	lf := hasCode(asLead, CodeThirdPartyAssignment, "alice")
	if lf == nil || lf.Severity != SeverityError || commandText(lf.Command) != CommandAddMaintainer(pk("carol")).String() || lf.Subject != pk("carol") {
		t.Fatalf("lead must be told to cover carol: %v", asLead.Health)
	}
	asBob := resolveAs(t, "alice", "bob", alice, bob, carol)
	bf := hasCode(asBob, CodeThirdPartyAssignment, "bob")
	if bf == nil || bf.Severity != SeverityError || commandText(bf.Command) != CommandFollowLead().String() {
		t.Fatalf("bob must be told to follow the lead: %v", asBob.Health)
	}
}

// "A proposed lead publishes an active self-M and complete roster before
// the old lead points to them." Read side: preparation does not move the
// lead of coordinates that still start from the old lead.
func TestInvariantPreparedLeadDoesNotMoveOldCoordinate(t *testing.T) {
	alice := ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<bob>", "200"})
	bob := ann(t, "bob", 400, []string{"M", "<alice>", "200", "400"}, []string{"m", "<bob>", "200", "400"}, []string{"M", "<bob>", "400"}, []string{"m", "<alice>"})
	r := resolve(t, "alice", alice, bob)
	if r.Lead != pk("alice") || !r.Confirmed(pk("bob")) {
		t.Fatalf("old coordinate keeps its lead: %s", r.Lead)
	}
	if got := resolve(t, "bob", alice, bob); got.Lead != pk("bob") {
		t.Fatalf("prepared lead's own coordinate resolves to them: %s", got.Lead)
	}
}

// "Human-facing commands repeatedly offer repo follow-lead until each
// co-maintainer has an active direct M to the new lead."
func TestInvariantFollowLeadOfferedUntilDirectPointer(t *testing.T) {
	alice := ann(t, "alice", 500, []string{"M", "<alice>", "0", "500"}, []string{"M", "<bob>", "500"}, []string{"m", "<alice>", "500"})
	bob := ann(t, "bob", 400, []string{"M", "<bob>", "400"}, []string{"m", "<alice>"}, []string{"m", "<carol>", "250"})
	carolOld := ann(t, "carol", 250, []string{"M", "<alice>", "250"}, []string{"m", "<carol>", "250"})
	r := resolveAs(t, "carol", "carol", alice, bob, carolOld)
	if !r.FollowLead || r.RecommendedCoordinate == nil || r.RecommendedCoordinate.Pubkey != pk("bob") || hasCode(r, CodeIndirectLeadPointer, "carol") == nil {
		t.Fatalf("carol must be offered follow-lead: %+v %v", r.RecommendedCoordinate, r.Health)
	}
	carolNew := ann(t, "carol", 600, []string{"M", "<bob>", "600"}, []string{"m", "<carol>", "250"})
	r = resolveAs(t, "bob", "carol", alice, bob, carolNew)
	if r.FollowLead || hasCode(r, CodeIndirectLeadPointer, "") != nil || hasCode(r, CodeFollowLead, "") != nil {
		t.Fatalf("guidance must stop after convergence: %v", r.Health)
	}
}

// "A coordinate remains controllable by every holder of its signing key;
// changing its lead cannot transfer or revoke that control." Alice's latest
// instruction decides where alice/my-repo leads.
func TestInvariantCoordinateSignerControlsItsForward(t *testing.T) {
	bob := ann(t, "bob", 400, []string{"M", "<bob>"}, []string{"m", "<alice>"})
	forward := ann(t, "alice", 500, []string{"M", "<bob>", "500"}, []string{"m", "<alice>", "500"})
	withdrawn := ann(t, "alice", 600, []string{"M", "<alice>", "600"}, []string{"m", "<alice>", "500", "600"}, []string{"m", "<bob>"})
	if r := resolve(t, "alice", forward, bob); r.Lead != pk("bob") || !r.FollowLead {
		t.Fatal("forward must resolve to bob")
	}
	r := resolve(t, "alice", forward, withdrawn, bob)
	if r.Lead != pk("alice") || r.FollowLead {
		t.Fatalf("withdrawn forward must stop recommending bob: %s", r.Lead)
	}
}

// "A valid third-party historical copy can never authorize its subject or
// route lead resolution when its final interval is defer. A self-role
// ending in defer is invalid ... A later valid active self-role with an
// ordered signed start supersedes it for current authority ... With no such
// successor, only the affected author's announcement mutations and
// role-dependent writes are gated."
func TestInvariantDeferCopiesNeverAuthorizeAndSelfDeferIsAuthorScoped(t *testing.T) {
	alice := ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<bob>", "100"}, []string{"m", "<carol>", "100", "defer"})
	carol := ann(t, "carol", 100, []string{"M", "<alice>"}, []string{"m", "<carol>"})
	if r := resolve(t, "alice", alice, carol); r.Confirmed(pk("carol")) || r.Authorized(pk("carol"), ActionStatus, 200) {
		t.Fatal("a defer copy must not authorize its subject")
	}
	blocked := ann(t, "bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "100", "defer"})
	r := resolveAs(t, "alice", "carol", alice, blocked)
	if r.Confirmed(pk("bob")) || !r.Confirmed(pk("alice")) || hasCode(r, CodeSelfDefer, "bob").Severity != SeverityWarning {
		t.Fatal("self-defer blocks only its author and is a warning for others")
	}
	superseded := ann(t, "bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "100", "defer"}, []string{"m", "<bob>", "200"})
	r = resolveAs(t, "alice", "bob", alice, superseded)
	if !r.Confirmed(pk("bob")) || hasCode(r, CodeSelfDefer, "bob").Severity != SeverityWarning {
		t.Fatalf("a later active self-role must supersede: %v", r.Health)
	}
}

// "Clients still interpret those externally authored events
// deterministically, display the resulting archive or current restarted
// repository" and "Once deletion-aware relay discovery settles, clients
// present signed archive, deletion, and restart boundaries with actor and
// time and retain the last available signed repository snapshot, including
// relay hints. That historical presentation never restores current
// repository authority."
func TestInvariantLifecyclePresentationNeverRestoresAuthority(t *testing.T) {
	alice := ann(t, "alice", 400, []string{"M", "<alice>"}, []string{"m", "<carol>", "300", "400"})
	archived := ann(t, "carol", 420, []string{"M", "<alice>", "300", "400"}, []string{"m", "<carol>", "300", "400"}, []string{"relays", "wss://r.example"}, []string{"maintainers"})
	r := resolve(t, "carol", alice, archived)
	if r.Lifecycle != (Lifecycle{Status: LifecycleArchived, Actor: pk("carol"), Time: 400}) || len(r.Component) != 0 || r.Authorized(pk("carol"), ActionStatus, 10_000) {
		t.Fatalf("archive: %+v %v", r.Lifecycle, r.Component)
	}
	carol := ann(t, "carol", 300, []string{"M", "<alice>", "300"}, []string{"m", "<carol>", "300"}, []string{"relays", "wss://r.example"})
	r = resolve(t, "carol", alice, carol, del(t, "carol", 430, []string{"a", "30617:<carol>:" + testID}))
	if r.Lifecycle != (Lifecycle{Status: LifecycleDeleted, Actor: pk("carol"), Time: 430}) || r.LastSnapshot == nil || !slices.Equal(r.LastSnapshot.Relays, []string{"wss://r.example"}) || r.Authorized(pk("carol"), ActionState, 500) {
		t.Fatalf("deletion: %+v snapshot %+v", r.Lifecycle, r.LastSnapshot)
	}
	restarted := ann(t, "carol", 500, []string{"M", "<alice>", "300", "400"}, []string{"m", "<carol>", "300", "400"}, []string{"M", "<carol>", "500"})
	r = resolve(t, "carol", alice, restarted)
	if r.Lifecycle != (Lifecycle{Status: LifecycleRestarted, Actor: pk("carol"), Time: 500}) || r.Authorized(pk("alice"), ActionState, 600) {
		t.Fatalf("restart: %+v", r.Lifecycle)
	}
}

// "Current authorization remains defined when exact history is missing or
// disputed."
func TestInvariantAuthorizationDefinedWithoutHistory(t *testing.T) {
	alice := ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<bob>"})
	bob := ann(t, "bob", 100, []string{"M", "<alice>"}, []string{"m", "<bob>"})
	r := resolve(t, "alice", alice, bob)
	if !r.Authorized(pk("bob"), ActionState, 5) || !r.Authorized(pk("bob"), ActionStatus, 5) {
		t.Fatal("untimed reciprocal roles authorize from 0")
	}
	disputedBob := ann(t, "bob", 100, []string{"M", "<alice>", "50"}, []string{"m", "<bob>", "50"})
	disputed := ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<bob>", "80"}, []string{"maintainers", "<alice>", "<bob>"})
	r = resolve(t, "alice", disputed, disputedBob)
	if !r.Authorized(pk("bob"), ActionStatus, 90) || r.Authorized(pk("bob"), ActionStatus, 60) {
		t.Fatal("effective start is the later of assignment and acceptance")
	}
}

// "An existing co-maintainer accepting a lead role closes self-m and opens
// self-M at the same boundary. This is one continuous repository
// lifecycle. ... A same-coordinate restart requires a later self-lead start
// after a real timestamp gap."
func TestInvariantSameBoundaryPromotionIsNotARestart(t *testing.T) {
	same := ann(t, "bob", 400, []string{"m", "<bob>", "200", "400"}, []string{"M", "<bob>", "400"}, []string{"m", "<alice>"})
	alice := ann(t, "alice", 300, []string{"M", "<bob>", "300"}, []string{"m", "<alice>", "300"})
	r := resolve(t, "bob", same, alice)
	if r.Lifecycle.Status != LifecycleActive {
		t.Fatalf("same-boundary promotion: %+v", r.Lifecycle)
	}
	if start, _ := r.EffectiveStart(pk("bob")); start != 200 {
		t.Fatalf("continuous role starts at 200, got %d", start)
	}
	gap := ann(t, "bob", 400, []string{"m", "<bob>", "200", "350"}, []string{"M", "<bob>", "400"}, []string{"m", "<alice>"})
	if r := resolve(t, "bob", gap, alice); r.Lifecycle.Status != LifecycleRestarted || r.Lifecycle.Time != 400 {
		t.Fatalf("gapped restart: %+v", r.Lifecycle)
	}
}

// "Departure timing prefers an explicit signed role end, then a signed
// deletion request, then a clearly labelled observation estimate."
func TestInvariantDepartureEstimateIsWeakestAndLabelled(t *testing.T) {
	alice := ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<carol>", "100"}, []string{"maintainers", "<alice>", "<carol>"})
	bob := ann(t, "bob", 300, []string{"M", "<alice>"}, []string{"m", "<bob>"}, []string{"m", "<dave>", "50", "defer"})
	aliceWithBob := ann(t, "alice", 310, []string{"M", "<alice>"}, []string{"m", "<bob>"}, []string{"m", "<carol>", "100"}, []string{"maintainers", "<alice>", "<bob>", "<carol>"})
	est := Options{DepartureEstimates: map[string]int64{pk("carol"): 500, pk("dave"): 600}}
	// Carol's announcement vanished with no signed evidence: estimate.
	r := Resolve([]*nostr.Event{alice}, sel("alice"), 10_000, est)
	if e := historyOf(r, "carol", "m"); e == nil || e.Intervals[0].End != EndEstimated || e.Intervals[0].EndTime != 500 {
		t.Fatalf("estimate must be used and labelled: %+v", e)
	}
	// A signed self end beats the estimate.
	carolLeft := ann(t, "carol", 400, []string{"M", "<alice>", "100"}, []string{"m", "<carol>", "100", "350"})
	r = Resolve([]*nostr.Event{alice, carolLeft}, sel("alice"), 10_000, est)
	if e := historyOf(r, "carol", "m"); e == nil || e.Intervals[0].End != EndSigned || e.Intervals[0].EndTime != 350 {
		t.Fatalf("signed end must win over the estimate: %+v", e)
	}
	// A deferred copy of a departed non-member is closed by the estimate too.
	r = Resolve([]*nostr.Event{aliceWithBob, bob}, sel("alice"), 10_000, est)
	if e := historyOf(r, "dave", "m"); e == nil || e.Intervals[0].End != EndEstimated {
		t.Fatalf("deferred copy: %+v", e)
	}
	// Without an estimate nothing is invented.
	r = Resolve([]*nostr.Event{alice}, sel("alice"), 10_000, Options{})
	if e := historyOf(r, "carol", "m"); e == nil || e.Intervals[0].End != EndOpen {
		t.Fatalf("no evidence, no end: %+v", e)
	}
}

// commandText is a finding's command as printed, "" when it has none.
func commandText(c *suggest.Command) string {
	if c == nil {
		return ""
	}
	return c.String()
}

// sameAs compares two pending acknowledgements field by field.
func (p PendingAck) sameAs(q PendingAck) bool {
	return p.Author == q.Author && p.Pubkey == q.Pubkey && p.Transition == q.Transition && p.Time == q.Time && p.Command.Equal(q.Command)
}
