package repo_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

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
		clitest.Publish(t, r.URL(), clitest.LeadShaped(t, "proj")...)
	}
	env := clitest.TestEnv(t)
	m, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: env}, append([]string{"--repo", clitest.Alice.Naddr("proj")}, clitest.RelayArgs(relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.Code, r.Out, r.Err)
	}
	if m["schema"] != "roster.repo/v2" || m["selected_maintainer"] != clitest.Alice.Npub() || m["lead_maintainer"] != clitest.Alice.Npub() ||
		m["lead_source"] != "explicit" || m["complete"] != true {
		t.Fatalf("unexpected header fields:\n%s", r.Out)
	}
	want := map[string]string{clitest.Alice.Npub(): "confirmed", clitest.Bob.Npub(): "confirmed", clitest.Carol.Npub(): "invited"}
	if got := clitest.MemberStatuses(t, m["maintainers"]); !equalMaps(got, want) {
		t.Fatalf("maintainers %v, want %v", got, want)
	}
	if got := clitest.MemberStatuses(t, m["moderators"]); !equalMaps(got, map[string]string{clitest.Dave.Npub(): "confirmed"}) {
		t.Fatalf("moderators %v", got)
	}
	if m["follow_lead_command"] != nil || m["recommended_coordinate"] != nil {
		t.Fatalf("the lead's own coordinate has nothing to follow:\n%s", r.Out)
	}
	st, _ := m["state"].(map[string]any)
	if st == nil || st["author"] != clitest.Bob.Npub() || st["head"] != "refs/heads/main" ||
		st["refs"].(map[string]any)["refs/heads/main"] != strings.Repeat("ab", 20) {
		t.Fatalf("state %v", m["state"])
	}
	for url, status := range clitest.RelayStatuses(t, m["relays"]) {
		if status != "ok" {
			t.Fatalf("relay %s status %s", url, status)
		}
	}
	c := m["coordinate"].(map[string]any)
	if c["naddr"] != clitest.Alice.Naddr("proj") || c["pubkey"] != clitest.Alice.Pk || c["identifier"] != "proj" {
		t.Fatalf("coordinate %v", c)
	}

	// The human view of the same read answers the four questions first.
	h := clitest.Invocation{Env: env}.Roster(t, append([]string{"repo", "--timeout", "3s", "--repo", clitest.Alice.Naddr("proj")}, clitest.RelayArgs(relays)...)...)
	if h.Code != cmdutil.ExitOK {
		t.Fatalf("human exit %d: %s", h.Code, h.Err)
	}
	for _, s := range []string{"selected         proj by " + clitest.Alice.Npub(), "lead             " + clitest.Alice.Npub() + "  (explicit)",
		clitest.Carol.Npub() + "  invited", "moderators       " + clitest.Dave.Npub() + "  confirmed", "complete         yes"} {
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
	clitest.Publish(t, relays[0].URL(), clitest.LeadShaped(t, "proj")...)
	env := clitest.TestEnv(t)
	m, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: env}, "--repo", clitest.Bob.Naddr("proj"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	if m["selected_maintainer"] != clitest.Bob.Npub() || m["lead_maintainer"] != clitest.Alice.Npub() || m["lead_source"] != "explicit" {
		t.Fatalf("selection/lead wrong:\n%s", r.Out)
	}
	path := m["lead_path"].([]any)
	if len(path) != 2 || path[0] != clitest.Bob.Npub() || path[1] != clitest.Alice.Npub() {
		t.Fatalf("lead_path %v", path)
	}
	if m["follow_lead_command"] != "roster repo follow-lead" || m["recommended_coordinate"] != "nostr://"+clitest.Alice.Npub()+"/proj" {
		t.Fatalf("follow-lead fields:\n%s", r.Out)
	}
	if got := clitest.MemberStatuses(t, m["maintainers"]); got[clitest.Alice.Npub()] != "confirmed" || got[clitest.Bob.Npub()] != "confirmed" {
		t.Fatalf("the same component from bob's coordinate: %v", got)
	}
	if r.Err != "" {
		t.Fatalf("--json printed warnings on stderr: %q", r.Err)
	}

	h := clitest.Invocation{Env: env}.Roster(t, "repo", "--repo", clitest.Bob.Naddr("proj"), "--relay", relays[0].URL())
	want := "this checkout uses " + clitest.Bob.Npub() + "/proj; its lead pointer resolves to " + clitest.Alice.Npub() + "/proj\n" +
		"switch to the lead with: roster repo follow-lead"
	if h.Code != cmdutil.ExitOK || !strings.Contains(h.Err, want) {
		t.Fatalf("exit %d, stderr lacks the follow-lead warning:\n%s", h.Code, h.Err)
	}
	// "warn after every human-facing repository command": health too.
	hc := clitest.Invocation{Env: env}.Roster(t, "repo", "health", "--repo", clitest.Bob.Naddr("proj"), "--relay", relays[0].URL())
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
		clitest.Publish(t, r.URL(), clitest.LeadShaped(t, "proj")...)
	}
	down := relays[1].URL()
	relays[1].Stop()
	env := clitest.TestEnv(t)
	args := append([]string{"--repo", clitest.Alice.Naddr("proj")}, clitest.RelayArgs(relays)...)
	m, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: env}, args...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("partial read exit %d, want 0: %s", r.Code, r.Err)
	}
	if m["complete"] != false {
		t.Fatalf("complete = %v with a relay down", m["complete"])
	}
	st := clitest.RelayStatuses(t, m["relays"])
	if st[down] != "failed" || st[relays[0].URL()] != "ok" || st[relays[2].URL()] != "ok" {
		t.Fatalf("relay statuses %v (down %s)", st, down)
	}
	if got := clitest.MemberStatuses(t, m["maintainers"]); got[clitest.Bob.Npub()] != "confirmed" {
		t.Fatalf("partial answer should still be useful: %v", got)
	}

	h := clitest.Invocation{Env: env}.Roster(t, append([]string{"repo", "--timeout", "3s"}, args...)...)
	if h.Code != cmdutil.ExitOK || !strings.Contains(h.Out, "no: partial answer, "+down+" did not answer") {
		t.Fatalf("exit %d; human output does not name the failed relay:\n%s", h.Code, h.Out)
	}

	hc := clitest.Invocation{Env: env}.Roster(t, append([]string{"repo", "health", "--timeout", "3s"}, args...)...)
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
		clitest.Publish(t, r.URL(), clitest.LeadShaped(t, "proj")...)
	}
	mallory := clitest.NewPerson("mallory")
	forged := clitest.Alice.Announce(t, "proj", 5000, nostr.Tag{"M", clitest.Alice.Pk}, nostr.Tag{"m", mallory.Pk}, clitest.MaintainersTag(clitest.Alice, mallory))
	forged.Sig = mallory.Announce(t, "proj", 5000).Sig // a signature by someone else
	tampered := clitest.Alice.Announce(t, "proj", 5001, nostr.Tag{"M", clitest.Alice.Pk}, nostr.Tag{"m", mallory.Pk}, clitest.MaintainersTag(clitest.Alice, mallory))
	tampered.Tags = append(tampered.Tags, nostr.Tag{"m", clitest.NewPerson("trent").Pk}) // id no longer matches
	relays[1].Inject(forged)
	relays[1].Inject(tampered)

	m, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: clitest.TestEnv(t)}, append([]string{"--repo", clitest.Alice.Naddr("proj")}, clitest.RelayArgs(relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	got := clitest.MemberStatuses(t, m["maintainers"])
	if _, ok := got[mallory.Npub()]; ok {
		t.Fatalf("forged announcement was used: %v", got)
	}
	if got[clitest.Bob.Npub()] != "confirmed" {
		t.Fatalf("the genuine announcement lost: %v", got)
	}
}

// NIP-01 replacement across relays: when relays disagree, the newest signed
// announcement wins whichever relay served it.
func TestRepoNewerAnnouncementWinsAcrossRelays(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	older := clitest.Alice.Announce(t, "proj", 1000) // sole maintainer
	newer := clitest.Alice.Announce(t, "proj", 2000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "1500"), clitest.MaintainersTag(clitest.Alice, clitest.Bob))
	accept := clitest.Bob.Announce(t, "proj", 1600, clitest.Role("M", clitest.Alice, "1500"), clitest.Role("m", clitest.Bob, "1500"), clitest.MaintainersTag(clitest.Alice, clitest.Bob))
	clitest.Publish(t, relays[0].URL(), older)
	clitest.Publish(t, relays[1].URL(), newer, accept)

	m, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: clitest.TestEnv(t)}, append([]string{"--repo", clitest.Alice.Naddr("proj")}, clitest.RelayArgs(relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	if m["lead_source"] != "explicit" || clitest.MemberStatuses(t, m["maintainers"])[clitest.Bob.Npub()] != "confirmed" {
		t.Fatalf("older announcement won:\n%s", r.Out)
	}

	// The same with the relays in the other order: order must not matter.
	rev := []*devrelay.Relay{relays[1], relays[0]}
	m2, _ := clitest.RepoJSONRun(t, clitest.Invocation{Env: clitest.TestEnv(t)}, append([]string{"--repo", clitest.Alice.Naddr("proj")}, clitest.RelayArgs(rev)...)...)
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
		clitest.Publish(t, r.URL(), clitest.LeadShaped(t, "proj")...)
	}
	env := clitest.TestEnv(t)
	online, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: env}, append([]string{"--repo", clitest.Alice.Naddr("proj")}, clitest.RelayArgs(relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("online exit %d: %s", r.Code, r.Err)
	}
	reqs := relays[0].ReqCount() + relays[1].ReqCount()
	for _, rl := range relays {
		rl.Stop()
	}
	offline, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: env}, "--offline", "--repo", clitest.Alice.Naddr("proj"))
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("offline exit %d: %s", r.Code, r.Err)
	}
	if offline["complete"] != false || len(offline["relays"].([]any)) != 0 {
		t.Fatalf("offline read must say it asked no relay and is not complete:\n%v", offline)
	}
	for _, k := range []string{"maintainers", "moderators", "lead_maintainer", "lead_source", "state"} {
		if !clitest.JsonEqual(online[k], offline[k]) {
			t.Fatalf("%s differs offline:\nonline  %v\noffline %v", k, online[k], offline[k])
		}
	}
	if got := relays[0].ReqCount() + relays[1].ReqCount(); got != reqs {
		t.Fatalf("--offline sent %d REQs", got-reqs)
	}

	// A coordinate the cache never saw: exit 4, saying to go online.
	_, miss := clitest.RepoJSONRun(t, clitest.Invocation{Env: env}, "--offline", "--repo", clitest.Carol.Naddr("proj"))
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
	evts := clitest.LeadShaped(t, "proj")[:3] // the announcements, no state
	for _, r := range relays {
		clitest.Publish(t, r.URL(), evts...)
	}
	env := clitest.TestEnv(t)
	env["ROSTER_RELAYS"] = strings.Join(devrelay.URLs(relays), ",")
	_, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: env}, "--repo", clitest.Alice.Naddr("proj"))
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	// One discovery REQ, and one for the people's profiles (a cold cache
	// has none); a warm read asks for neither again (profiles are fresh).
	for _, rl := range relays {
		if n := rl.ReqCount(); n != 2 || !clitest.IsProfileREQ(rl.Requests()[1]) {
			t.Fatalf("relay %s got %d REQs, want exactly 2 (discovery, profiles): %v", rl.URL(), n, rl.Requests())
		}
	}
}

// Rule (discovery rounds): a relay learned from the selected announcement's
// `relays` tag costs one more round, and only that relay is asked again.
func TestRepoAnnouncedRelayCostsOneMoreRoundOnlyThere(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 3, devrelay.Options{})
	ann := clitest.Alice.Announce(t, "proj", 1000, nostr.Tag{"relays", relays[0].URL(), relays[2].URL()})
	for _, r := range relays {
		clitest.Publish(t, r.URL(), ann)
	}
	env := clitest.TestEnv(t)
	env["ROSTER_RELAYS"] = relays[0].URL() + "," + relays[1].URL()
	m, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: env}, "--repo", clitest.Alice.Naddr("proj"))
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	counts := []int{relays[0].ReqCount(), relays[1].ReqCount(), relays[2].ReqCount()}
	// The profiles are asked, alongside that round, of the relays first asked.
	if counts[0] != 2 || counts[1] != 2 || counts[2] != 1 {
		t.Fatalf("REQs per relay %v, want [2 2 1]", counts)
	}
	if len(clitest.RelayStatuses(t, m["relays"])) != 3 {
		t.Fatalf("the learned relay is not reported: %v", m["relays"])
	}
}

// docs/exit-codes.md, exit 4 "coordinate not found": the message says what was
// searched and what to try.
func TestRepoCoordinateNotFound(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), clitest.LeadShaped(t, "proj")...)
	r := clitest.Invocation{Env: clitest.TestEnv(t)}.Roster(t, "repo", "--repo", clitest.Alice.Naddr("nope"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitIncomplete {
		t.Fatalf("exit %d, want 4: %s", r.Code, r.Err)
	}
	for _, s := range []string{"no repository announcement found", `d="nope"`, relays[0].URL(), "run:"} {
		if !strings.Contains(r.Err, s) {
			t.Fatalf("stderr lacks %q:\n%s", s, r.Err)
		}
	}
	j := clitest.Invocation{Env: clitest.TestEnv(t)}.Roster(t, "repo", "--json", "--repo", clitest.Alice.Naddr("nope"), "--relay", relays[0].URL())
	if j.Code != cmdutil.ExitIncomplete || !strings.Contains(j.Out, `"code": "not-found"`) {
		t.Fatalf("json exit %d:\n%s", j.Code, j.Out)
	}
}

// Without relays from any source the user is told how to name one (exit 2).
func TestRepoWithoutRelaysIsUsageError(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: clitest.TestEnv(t)}.Roster(t, "repo", "--repo", clitest.Alice.Naddr("proj"))
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "--relay") || !strings.Contains(r.Err, "ROSTER_RELAYS") {
		t.Fatalf("exit %d:\n%s", r.Code, r.Err)
	}
}

// Outside a checkout and without --repo, roster says how to name a repository.
func TestRepoOutsideCheckoutWithoutRepoFlag(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, "repo")
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
	r := clitest.Invocation{Env: clitest.TestEnv(t)}.Roster(t, append([]string{"repo", "--timeout", "2s", "--repo", clitest.Alice.Naddr("proj")}, clitest.RelayArgs(relays)...)...)
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
	evts := clitest.LeadShaped(t, "proj")
	clitest.Publish(t, open[0].URL(), evts...)
	for _, e := range evts {
		guarded[0].Inject(e) // the guarded relay refuses unauthenticated EVENTs too
	}
	args := []string{"--repo", clitest.Alice.Naddr("proj"), "--relay", open[0].URL(), "--relay", guarded[0].URL()}

	m, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: clitest.TestEnv(t)}, args...)
	if r.Code != cmdutil.ExitOK || m["complete"] != false || clitest.RelayStatuses(t, m["relays"])[guarded[0].URL()] != "closed" {
		t.Fatalf("without a signer: exit %d\n%s", r.Code, r.Out)
	}
	h := clitest.Invocation{Env: clitest.TestEnv(t)}.Roster(t, append([]string{"repo", "--timeout", "3s"}, args...)...)
	if !strings.Contains(h.Out, guarded[0].URL()+"  closed, 0 event(s): auth-required") {
		t.Fatalf("the reason is not shown:\n%s", h.Out)
	}

	m, r = clitest.RepoJSONRun(t, clitest.Invocation{Env: clitest.WithKey(clitest.TestEnv(t), clitest.Erin)}, args...)
	if r.Code != cmdutil.ExitOK || m["complete"] != true || clitest.RelayStatuses(t, m["relays"])[guarded[0].URL()] != "ok" {
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
	evts := append(clitest.LeadShaped(t, "proj"), clitest.Carol.State(t, "proj", 9000, strings.Repeat("cd", 20)))
	clitest.Publish(t, relays[0].URL(), evts...)
	m, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: clitest.TestEnv(t)}, "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	st := m["state"].(map[string]any)
	if st["author"] != clitest.Bob.Npub() || st["refs"].(map[string]any)["refs/heads/main"] != strings.Repeat("ab", 20) {
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
	evts := clitest.LeadShaped(t, "proj")
	aliceOld := clitest.Alice.State(t, "proj", 900, strings.Repeat("01", 20))
	aliceNew := clitest.Alice.State(t, "proj", 2000, strings.Repeat("02", 20))
	del := clitest.Alice.Sign(t, 5, 2001, nostr.Tag{"e", aliceNew.ID}, nostr.Tag{"a", "30618:" + clitest.Alice.Pk + ":proj"})
	// Inject: a relay that ignores deletions still serves both; roster must apply them.
	for _, e := range append(evts, aliceOld, aliceNew, del) {
		relays[0].Inject(e)
	}
	m, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: clitest.TestEnv(t)}, "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	if st := m["state"].(map[string]any); st["author"] != clitest.Bob.Npub() {
		t.Fatalf("deleted or superseded state was used: %v", st)
	}
}

// maintainers.md "A removed maintainer archives or restarts the coordinate":
// a signed deletion and an archive are shown with actor and time, the last
// signed snapshot stays readable, and neither grants current authority.
func TestRepoDeletedAndArchivedCoordinatesStayReadable(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	ann := clitest.Alice.Announce(t, "proj", 1000)
	del := clitest.Alice.Sign(t, 5, 2000, nostr.Tag{"a", clitest.Alice.Coord("proj").ATag()}, nostr.Tag{"e", ann.ID})
	relays[0].Inject(ann) // a relay that still serves the deleted announcement
	relays[0].Inject(del)
	archived := clitest.Carol.Announce(t, "old", 5000, clitest.Role("M", clitest.Alice, "200", "400"), clitest.Role("m", clitest.Bob, "200", "400"),
		clitest.Role("m", clitest.Carol, "300", "400"), clitest.MaintainersTag())
	clitest.Publish(t, relays[0].URL(), archived)

	m, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: clitest.TestEnv(t)}, "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL())
	lc := m["lifecycle"].(map[string]any)
	if r.Code != cmdutil.ExitOK || lc["status"] != "deleted" || lc["actor"] != clitest.Alice.Npub() || lc["time"] != float64(2000) ||
		len(m["maintainers"].([]any)) != 0 || m["lead_maintainer"] != nil {
		t.Fatalf("deleted coordinate: exit %d\n%s", r.Code, r.Out)
	}
	h := clitest.Invocation{Env: clitest.TestEnv(t)}.Roster(t, "repo", "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL())
	if !strings.Contains(h.Out, "name             Test proj") || !strings.Contains(h.Out, "deleted by "+clitest.Alice.Npub()) ||
		!strings.Contains(h.Out, "(none: this coordinate is deleted)") {
		t.Fatalf("deleted coordinate's snapshot not shown:\n%s", h.Out)
	}

	m, r = clitest.RepoJSONRun(t, clitest.Invocation{Env: clitest.TestEnv(t)}, "--repo", clitest.Carol.Naddr("old"), "--relay", relays[0].URL())
	lc = m["lifecycle"].(map[string]any)
	if r.Code != cmdutil.ExitOK || lc["status"] != "archived" || lc["actor"] != clitest.Carol.Npub() || lc["time"] != float64(400) {
		t.Fatalf("archived coordinate: exit %d\n%s", r.Code, r.Out)
	}
}

// Rule (suggestions run the same command): when no relay answers a
// repository read other than `roster repo`, the retries are that read
// (`repo state`, `repo graph`, `repo history`), not the plain one.
func TestNoRelayAnsweredRetriesTheSameRead(t *testing.T) {
	t.Parallel()
	for _, sub := range []string{"state", "graph", "history"} {
		args := []string{"repo", sub, "--timeout", "2s", "--repo", clitest.Alice.Naddr("proj"), "--relay", "ws://127.0.0.1:1", "--json"}
		r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, args...)
		e := clitest.ErrorBody(t, r)
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
