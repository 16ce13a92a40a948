package main

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// maintainers.md "Inspecting a repository" and docs/json.md roster.repo/v2: the
// normal lead-shaped repository, read from the lead's coordinate over three relays.
func TestRepoLeadShapedRepository(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 3, devrelay.Options{})
	for _, r := range relays {
		publish(t, r.URL(), leadShaped(t, "proj")...)
	}
	env := testEnv(t)
	m, r := repoJSONRun(t, invocation{Env: env}, append([]string{"--repo", alice.naddr("proj")}, relayArgs(relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.Code, r.Out, r.Err)
	}
	if m["schema"] != "roster.repo/v2" || m["selected_maintainer"] != alice.npub() || m["lead_maintainer"] != alice.npub() ||
		m["lead_source"] != "explicit" || m["complete"] != true {
		t.Fatalf("unexpected header fields:\n%s", r.Out)
	}
	want := map[string]string{alice.npub(): "confirmed", bob.npub(): "confirmed", carol.npub(): "invited"}
	if got := memberStatuses(t, m["maintainers"]); !equalMaps(got, want) {
		t.Fatalf("maintainers %v, want %v", got, want)
	}
	if got := memberStatuses(t, m["moderators"]); !equalMaps(got, map[string]string{dave.npub(): "confirmed"}) {
		t.Fatalf("moderators %v", got)
	}
	if m["follow_lead_command"] != nil || m["recommended_coordinate"] != nil {
		t.Fatalf("the lead's own coordinate has nothing to follow:\n%s", r.Out)
	}
	st, _ := m["state"].(map[string]any)
	if st == nil || st["author"] != bob.npub() || st["head"] != "refs/heads/main" ||
		st["refs"].(map[string]any)["refs/heads/main"] != strings.Repeat("ab", 20) {
		t.Fatalf("state %v", m["state"])
	}
	for url, status := range relayStatuses(t, m["relays"]) {
		if status != "ok" {
			t.Fatalf("relay %s status %s", url, status)
		}
	}
	c := m["coordinate"].(map[string]any)
	if c["naddr"] != alice.naddr("proj") || c["pubkey"] != alice.pk || c["identifier"] != "proj" {
		t.Fatalf("coordinate %v", c)
	}

	// The human view of the same read answers the four questions first.
	h := invocation{Env: env}.roster(t, append([]string{"repo", "--timeout", "3s", "--repo", alice.naddr("proj")}, relayArgs(relays)...)...)
	if h.Code != cmdutil.ExitOK {
		t.Fatalf("human exit %d: %s", h.Code, h.Err)
	}
	for _, s := range []string{"selected         " + alice.npub() + "/proj", "lead             " + alice.npub() + "  (explicit)",
		carol.npub() + "  invited", "moderators       " + dave.npub() + "  confirmed", "complete         yes"} {
		if !strings.Contains(h.Out, s) {
			t.Fatalf("human output lacks %q:\n%s", s, h.Out)
		}
	}
	if strings.Contains(h.Out, "\x1b[") {
		t.Fatalf("non-TTY output is styled:\n%q", h.Out)
	}
}

// maintainers.md "Recommended defaults": selecting a co-maintainer's
// coordinate resolves the lead through its M pointer, recommends the lead's
// coordinate, and warns after the command with the spec's wording.
func TestRepoFromCoMaintainerCoordinate(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	publish(t, relays[0].URL(), leadShaped(t, "proj")...)
	env := testEnv(t)
	m, r := repoJSONRun(t, invocation{Env: env}, "--repo", bob.naddr("proj"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	if m["selected_maintainer"] != bob.npub() || m["lead_maintainer"] != alice.npub() || m["lead_source"] != "explicit" {
		t.Fatalf("selection/lead wrong:\n%s", r.Out)
	}
	path := m["lead_path"].([]any)
	if len(path) != 2 || path[0] != bob.npub() || path[1] != alice.npub() {
		t.Fatalf("lead_path %v", path)
	}
	if m["follow_lead_command"] != "roster repo follow-lead" || m["recommended_coordinate"] != "nostr://"+alice.npub()+"/proj" {
		t.Fatalf("follow-lead fields:\n%s", r.Out)
	}
	if got := memberStatuses(t, m["maintainers"]); got[alice.npub()] != "confirmed" || got[bob.npub()] != "confirmed" {
		t.Fatalf("the same component from bob's coordinate: %v", got)
	}
	if r.Err != "" {
		t.Fatalf("--json printed warnings on stderr: %q", r.Err)
	}

	h := invocation{Env: env}.roster(t, "repo", "--repo", bob.naddr("proj"), "--relay", relays[0].URL())
	want := "this checkout uses " + bob.npub() + "/proj; its lead pointer resolves to " + alice.npub() + "/proj\n" +
		"switch to the lead with: roster repo follow-lead"
	if h.Code != cmdutil.ExitOK || !strings.Contains(h.Err, want) {
		t.Fatalf("exit %d, stderr lacks the follow-lead warning:\n%s", h.Code, h.Err)
	}
	// "warn after every human-facing repository command": health too.
	hc := invocation{Env: env}.roster(t, "repo", "health", "--repo", bob.naddr("proj"), "--relay", relays[0].URL())
	if !strings.Contains(hc.Err, want) {
		t.Fatalf("repo health stderr lacks the follow-lead warning:\n%s", hc.Err)
	}
}

// docs/exit-codes.md: a read that only some relays answered exits 0,
// shows what it has, marks complete:false and names the relay that failed;
// repo health treats the same evidence as exit 4.
func TestRepoOneOfThreeRelaysDown(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 3, devrelay.Options{})
	for _, r := range relays {
		publish(t, r.URL(), leadShaped(t, "proj")...)
	}
	down := relays[1].URL()
	relays[1].Stop()
	env := testEnv(t)
	args := append([]string{"--repo", alice.naddr("proj")}, relayArgs(relays)...)
	m, r := repoJSONRun(t, invocation{Env: env}, args...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("partial read exit %d, want 0: %s", r.Code, r.Err)
	}
	if m["complete"] != false {
		t.Fatalf("complete = %v with a relay down", m["complete"])
	}
	st := relayStatuses(t, m["relays"])
	if st[down] != "failed" || st[relays[0].URL()] != "ok" || st[relays[2].URL()] != "ok" {
		t.Fatalf("relay statuses %v (down %s)", st, down)
	}
	if got := memberStatuses(t, m["maintainers"]); got[bob.npub()] != "confirmed" {
		t.Fatalf("partial answer should still be useful: %v", got)
	}

	h := invocation{Env: env}.roster(t, append([]string{"repo", "--timeout", "3s"}, args...)...)
	if h.Code != cmdutil.ExitOK || !strings.Contains(h.Out, "no: partial answer, "+down+" did not answer") {
		t.Fatalf("exit %d; human output does not name the failed relay:\n%s", h.Code, h.Out)
	}

	hc := invocation{Env: env}.roster(t, append([]string{"repo", "health", "--timeout", "3s"}, args...)...)
	if hc.Code != cmdutil.ExitIncomplete || !strings.Contains(hc.Err, down) {
		t.Fatalf("health exit %d, want 4 naming %s:\n%s", hc.Code, down, hc.Err)
	}
}

// docs/architecture.md "Reading a repository", step 3: every event is id- and
// signature-checked. A relay serving a forged "newer" announcement in Alice's
// name (bad signature) and one with a tampered id cannot change the roster.
func TestRepoIgnoresForgedEvents(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	for _, r := range relays {
		publish(t, r.URL(), leadShaped(t, "proj")...)
	}
	mallory := newPerson("mallory")
	forged := alice.announce(t, "proj", 5000, nostr.Tag{"M", alice.pk}, nostr.Tag{"m", mallory.pk}, maintainersTag(alice, mallory))
	forged.Sig = mallory.announce(t, "proj", 5000).Sig // a signature by someone else
	tampered := alice.announce(t, "proj", 5001, nostr.Tag{"M", alice.pk}, nostr.Tag{"m", mallory.pk}, maintainersTag(alice, mallory))
	tampered.Tags = append(tampered.Tags, nostr.Tag{"m", newPerson("trent").pk}) // id no longer matches
	relays[1].Inject(forged)
	relays[1].Inject(tampered)

	m, r := repoJSONRun(t, invocation{Env: testEnv(t)}, append([]string{"--repo", alice.naddr("proj")}, relayArgs(relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	got := memberStatuses(t, m["maintainers"])
	if _, ok := got[mallory.npub()]; ok {
		t.Fatalf("forged announcement was used: %v", got)
	}
	if got[bob.npub()] != "confirmed" {
		t.Fatalf("the genuine announcement lost: %v", got)
	}
}

// NIP-01 replacement across relays: when relays disagree, the newest signed
// announcement wins whichever relay served it.
func TestRepoNewerAnnouncementWinsAcrossRelays(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	older := alice.announce(t, "proj", 1000) // sole maintainer
	newer := alice.announce(t, "proj", 2000, role("M", alice), role("m", bob, "1500"), maintainersTag(alice, bob))
	accept := bob.announce(t, "proj", 1600, role("M", alice, "1500"), role("m", bob, "1500"), maintainersTag(alice, bob))
	publish(t, relays[0].URL(), older)
	publish(t, relays[1].URL(), newer, accept)

	m, r := repoJSONRun(t, invocation{Env: testEnv(t)}, append([]string{"--repo", alice.naddr("proj")}, relayArgs(relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	if m["lead_source"] != "explicit" || memberStatuses(t, m["maintainers"])[bob.npub()] != "confirmed" {
		t.Fatalf("older announcement won:\n%s", r.Out)
	}

	// The same with the relays in the other order: order must not matter.
	rev := []*devrelay.Relay{relays[1], relays[0]}
	m2, _ := repoJSONRun(t, invocation{Env: testEnv(t)}, append([]string{"--repo", alice.naddr("proj")}, relayArgs(rev)...)...)
	if m2["lead_source"] != "explicit" {
		t.Fatalf("relay order changed the answer:\n%v", m2)
	}
}

// Rule (offline reads): --offline answers from what an earlier read cached, with
// no relay contacted and complete:false.
func TestRepoOfflineAfterFetch(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	for _, r := range relays {
		publish(t, r.URL(), leadShaped(t, "proj")...)
	}
	env := testEnv(t)
	online, r := repoJSONRun(t, invocation{Env: env}, append([]string{"--repo", alice.naddr("proj")}, relayArgs(relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("online exit %d: %s", r.Code, r.Err)
	}
	reqs := relays[0].ReqCount() + relays[1].ReqCount()
	for _, rl := range relays {
		rl.Stop()
	}
	offline, r := repoJSONRun(t, invocation{Env: env}, "--offline", "--repo", alice.naddr("proj"))
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("offline exit %d: %s", r.Code, r.Err)
	}
	if offline["complete"] != false || len(offline["relays"].([]any)) != 0 {
		t.Fatalf("offline read must say it asked no relay and is not complete:\n%v", offline)
	}
	for _, k := range []string{"maintainers", "moderators", "lead_maintainer", "lead_source", "state"} {
		if !jsonEqual(online[k], offline[k]) {
			t.Fatalf("%s differs offline:\nonline  %v\noffline %v", k, online[k], offline[k])
		}
	}
	if got := relays[0].ReqCount() + relays[1].ReqCount(); got != reqs {
		t.Fatalf("--offline sent %d REQs", got-reqs)
	}

	// A coordinate the cache never saw: exit 4, saying to go online.
	_, miss := repoJSONRun(t, invocation{Env: env}, "--offline", "--repo", carol.naddr("proj"))
	if miss.Code != cmdutil.ExitIncomplete || !strings.Contains(miss.Out, "local cache") || !strings.Contains(miss.Out, "without --offline") {
		t.Fatalf("offline miss exit %d:\n%s", miss.Code, miss.Out)
	}
}

// docs/architecture.md "Reading a repository", step 2: cold discovery sends
// exactly ONE REQ per relay when every announcement shares the identifier
// (and, docs/cache.md "Deletions on a plain read", no state event asks for
// its authors' deletions).
func TestRepoColdDiscoverySendsOneReqPerRelay(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 3, devrelay.Options{})
	evts := leadShaped(t, "proj")[:3] // the announcements, no state
	for _, r := range relays {
		publish(t, r.URL(), evts...)
	}
	env := testEnv(t)
	env["ROSTER_RELAYS"] = strings.Join(devrelay.URLs(relays), ",")
	_, r := repoJSONRun(t, invocation{Env: env}, "--repo", alice.naddr("proj"))
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	// One discovery REQ, and one for the people's profiles (a cold cache
	// has none); a warm read asks for neither again (profiles are fresh).
	for _, rl := range relays {
		if n := rl.ReqCount(); n != 2 || !isProfileREQ(rl.Requests()[1]) {
			t.Fatalf("relay %s got %d REQs, want exactly 2 (discovery, profiles): %v", rl.URL(), n, rl.Requests())
		}
	}
}

// Rule (discovery rounds): a relay learned from the selected announcement's
// `relays` tag costs one more round, and only that relay is asked again.
func TestRepoAnnouncedRelayCostsOneMoreRoundOnlyThere(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 3, devrelay.Options{})
	ann := alice.announce(t, "proj", 1000, nostr.Tag{"relays", relays[0].URL(), relays[2].URL()})
	for _, r := range relays {
		publish(t, r.URL(), ann)
	}
	env := testEnv(t)
	env["ROSTER_RELAYS"] = relays[0].URL() + "," + relays[1].URL()
	m, r := repoJSONRun(t, invocation{Env: env}, "--repo", alice.naddr("proj"))
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	counts := []int{relays[0].ReqCount(), relays[1].ReqCount(), relays[2].ReqCount()}
	// The profiles are asked, alongside that round, of the relays first asked.
	if counts[0] != 2 || counts[1] != 2 || counts[2] != 1 {
		t.Fatalf("REQs per relay %v, want [2 2 1]", counts)
	}
	if len(relayStatuses(t, m["relays"])) != 3 {
		t.Fatalf("the learned relay is not reported: %v", m["relays"])
	}
}

// docs/exit-codes.md, exit 4 "coordinate not found": the message says what was
// searched and what to try.
func TestRepoCoordinateNotFound(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	publish(t, relays[0].URL(), leadShaped(t, "proj")...)
	r := invocation{Env: testEnv(t)}.roster(t, "repo", "--repo", alice.naddr("nope"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitIncomplete {
		t.Fatalf("exit %d, want 4: %s", r.Code, r.Err)
	}
	for _, s := range []string{"no repository announcement found", `d="nope"`, relays[0].URL(), "run:"} {
		if !strings.Contains(r.Err, s) {
			t.Fatalf("stderr lacks %q:\n%s", s, r.Err)
		}
	}
	j := invocation{Env: testEnv(t)}.roster(t, "repo", "--json", "--repo", alice.naddr("nope"), "--relay", relays[0].URL())
	if j.Code != cmdutil.ExitIncomplete || !strings.Contains(j.Out, `"code": "not-found"`) {
		t.Fatalf("json exit %d:\n%s", j.Code, j.Out)
	}
}

// Without relays from any source the user is told how to name one (exit 2).
func TestRepoWithoutRelaysIsUsageError(t *testing.T) {
	t.Parallel()
	r := invocation{Env: testEnv(t)}.roster(t, "repo", "--repo", alice.naddr("proj"))
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "--relay") || !strings.Contains(r.Err, "ROSTER_RELAYS") {
		t.Fatalf("exit %d:\n%s", r.Code, r.Err)
	}
}

// Outside a checkout and without --repo, roster says how to name a repository.
func TestRepoOutsideCheckoutWithoutRepoFlag(t *testing.T) {
	t.Parallel()
	r := invocation{Env: testEnv(t), Dir: t.TempDir()}.roster(t, "repo")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "--repo") {
		t.Fatalf("exit %d:\n%s", r.Code, r.Err)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// When no relay answers, nothing was searched: roster says so (exit 4) and
// names each relay's failure instead of claiming the repository is missing.
func TestRepoNoRelayAnsweredIsNotNotFound(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	for _, r := range relays {
		r.Stop()
	}
	r := invocation{Env: testEnv(t)}.roster(t, append([]string{"repo", "--timeout", "2s", "--repo", alice.naddr("proj")}, relayArgs(relays)...)...)
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, "no relay answered") || strings.Contains(r.Err, "no repository announcement found") ||
		!strings.Contains(r.Err, relays[0].URL()+": failed") || !strings.Contains(r.Err, relays[1].URL()+": failed") ||
		strings.Contains(r.Err, "failed failed") || strings.Contains(r.Err, "failed: failed") {
		t.Fatalf("exit %d:\n%s", r.Code, r.Err)
	}
}

// Rule (NIP-42): a relay that demands authentication is answered with the
// user's signer when there is one; without one it is reported as closed
// with an auth-required reason, and the read is incomplete but still exits 0.
func TestRepoAuthRequiredRelay(t *testing.T) {
	t.Parallel()
	open := devrelay.StartN(t, 1, devrelay.Options{})
	guarded := devrelay.StartN(t, 1, devrelay.Options{RequireAuth: true})
	evts := leadShaped(t, "proj")
	publish(t, open[0].URL(), evts...)
	for _, e := range evts {
		guarded[0].Inject(e) // the guarded relay refuses unauthenticated EVENTs too
	}
	args := []string{"--repo", alice.naddr("proj"), "--relay", open[0].URL(), "--relay", guarded[0].URL()}

	m, r := repoJSONRun(t, invocation{Env: testEnv(t)}, args...)
	if r.Code != cmdutil.ExitOK || m["complete"] != false || relayStatuses(t, m["relays"])[guarded[0].URL()] != "closed" {
		t.Fatalf("without a signer: exit %d\n%s", r.Code, r.Out)
	}
	h := invocation{Env: testEnv(t)}.roster(t, append([]string{"repo", "--timeout", "3s"}, args...)...)
	if !strings.Contains(h.Out, guarded[0].URL()+"  closed, 0 event(s): auth-required") {
		t.Fatalf("the reason is not shown:\n%s", h.Out)
	}

	m, r = repoJSONRun(t, invocation{Env: withKey(testEnv(t), erin)}, args...)
	if r.Code != cmdutil.ExitOK || m["complete"] != true || relayStatuses(t, m["relays"])[guarded[0].URL()] != "ok" {
		t.Fatalf("with a signer: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
}

// maintainers.md "Recommended defaults": "Present a unilateral listing as an
// invitation. Do not call the invitee a maintainer or accept their state
// until reciprocity confirms them." Carol is invited and publishes newer
// state than Bob's; the resolved state stays Bob's.
func TestRepoStateFromInviteeIsNotAuthoritative(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	evts := append(leadShaped(t, "proj"), carol.state(t, "proj", 9000, strings.Repeat("cd", 20)))
	publish(t, relays[0].URL(), evts...)
	m, r := repoJSONRun(t, invocation{Env: testEnv(t)}, "--repo", alice.naddr("proj"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	st := m["state"].(map[string]any)
	if st["author"] != bob.npub() || st["refs"].(map[string]any)["refs/heads/main"] != strings.Repeat("ab", 20) {
		t.Fatalf("invitee state was used: %v", st)
	}
}

// NIP-09: a confirmed maintainer's deleted latest state is not resolved, and
// roster does not fall back to that author's older state. The deletion names
// the state's address, as NIP-09 asks for addressable events, so the single
// discovery round finds it for the selected coordinate.
func TestRepoDeletedStateIsSkipped(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	evts := leadShaped(t, "proj")
	aliceOld := alice.state(t, "proj", 900, strings.Repeat("01", 20))
	aliceNew := alice.state(t, "proj", 2000, strings.Repeat("02", 20))
	del := alice.sign(t, 5, 2001, nostr.Tag{"e", aliceNew.ID}, nostr.Tag{"a", "30618:" + alice.pk + ":proj"})
	// Inject: a relay that ignores deletions still serves both; roster must apply them.
	for _, e := range append(evts, aliceOld, aliceNew, del) {
		relays[0].Inject(e)
	}
	m, r := repoJSONRun(t, invocation{Env: testEnv(t)}, "--repo", alice.naddr("proj"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	if st := m["state"].(map[string]any); st["author"] != bob.npub() {
		t.Fatalf("deleted or superseded state was used: %v", st)
	}
}

// maintainers.md "A removed maintainer archives or restarts the coordinate":
// a signed deletion and an archive are shown with actor and time, the last
// signed snapshot stays readable, and neither grants current authority.
func TestRepoDeletedAndArchivedCoordinatesStayReadable(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	ann := alice.announce(t, "proj", 1000)
	del := alice.sign(t, 5, 2000, nostr.Tag{"a", alice.coord("proj").ATag()}, nostr.Tag{"e", ann.ID})
	relays[0].Inject(ann) // a relay that still serves the deleted announcement
	relays[0].Inject(del)
	archived := carol.announce(t, "old", 5000, role("M", alice, "200", "400"), role("m", bob, "200", "400"),
		role("m", carol, "300", "400"), maintainersTag())
	publish(t, relays[0].URL(), archived)

	m, r := repoJSONRun(t, invocation{Env: testEnv(t)}, "--repo", alice.naddr("proj"), "--relay", relays[0].URL())
	lc := m["lifecycle"].(map[string]any)
	if r.Code != cmdutil.ExitOK || lc["status"] != "deleted" || lc["actor"] != alice.npub() || lc["time"] != float64(2000) ||
		len(m["maintainers"].([]any)) != 0 || m["lead_maintainer"] != nil {
		t.Fatalf("deleted coordinate: exit %d\n%s", r.Code, r.Out)
	}
	h := invocation{Env: testEnv(t)}.roster(t, "repo", "--repo", alice.naddr("proj"), "--relay", relays[0].URL())
	if !strings.Contains(h.Out, "name             Test proj") || !strings.Contains(h.Out, "deleted by "+alice.npub()) ||
		!strings.Contains(h.Out, "(none: this coordinate is deleted)") {
		t.Fatalf("deleted coordinate's snapshot not shown:\n%s", h.Out)
	}

	m, r = repoJSONRun(t, invocation{Env: testEnv(t)}, "--repo", carol.naddr("old"), "--relay", relays[0].URL())
	lc = m["lifecycle"].(map[string]any)
	if r.Code != cmdutil.ExitOK || lc["status"] != "archived" || lc["actor"] != carol.npub() || lc["time"] != float64(400) {
		t.Fatalf("archived coordinate: exit %d\n%s", r.Code, r.Out)
	}
}

// Rule (suggestions run the same command): when no relay answers a
// repository read other than `roster repo`, the retries are that read
// (`repo state`, `repo graph`, `repo history`), not the plain one.
func TestNoRelayAnsweredRetriesTheSameRead(t *testing.T) {
	t.Parallel()
	for _, sub := range []string{"state", "graph", "history"} {
		args := []string{"repo", sub, "--timeout", "2s", "--repo", alice.naddr("proj"), "--relay", "ws://127.0.0.1:1", "--json"}
		r := invocation{Env: testEnv(t), Dir: t.TempDir()}.roster(t, args...)
		e := errorBody(t, r)
		if r.Code != cmdutil.ExitIncomplete || len(e.Commands) == 0 {
			t.Fatalf("repo %s: exit %d %+v", sub, r.Code, e)
		}
		for _, c := range e.Commands {
			if !strings.HasPrefix(c, "roster repo "+sub+" ") {
				t.Errorf("repo %s: suggests %q", sub, c)
			}
		}
	}
}
