package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// writeRelayScene is Alice's repository read through ROSTER_RELAYS (not
// --relay, which would pin the relays): her relay `home` plus relays only
// the events name.
type writeRelayScene struct {
	t      *testing.T
	id     string
	env    map[string]string
	home   *devrelay.Relay
	others []*devrelay.Relay
}

func newWriteRelayScene(t *testing.T, others int) *writeRelayScene {
	rs := devrelay.StartN(t, 1+others, devrelay.Options{})
	env := testEnv(t)
	env["ROSTER_RELAYS"] = rs[0].URL()
	return &writeRelayScene{t: t, id: "my-repo", env: env, home: rs[0], others: rs[1:]}
}

// run is roster as p at now on Alice's coordinate, relays from ROSTER_RELAYS.
func (s *writeRelayScene) run(p person, now int64, args ...string) result {
	s.t.Helper()
	return invocation{Env: withKey(s.env, p), Dir: s.t.TempDir(), Now: time.Unix(now, 0)}.roster(s.t,
		append([]string{"--repo", alice.naddr(s.id), "--timeout", "5s"}, args...)...)
}

// stored is every event every relay of the scene holds, by relay.
func (s *writeRelayScene) stored() [][]string {
	var out [][]string
	for _, r := range append([]*devrelay.Relay{s.home}, s.others...) {
		var ids []string
		for _, e := range r.Stored(nostr.Filter{}) {
			ids = append(ids, e.ID)
		}
		slices.Sort(ids)
		out = append(out, ids)
	}
	return out
}

// refusedJSON runs a change that must exit with code and errCode and leave
// every relay as it was; it returns the error object.
func (s *writeRelayScene) refusedJSON(p person, now int64, code int, errCode string, args ...string) map[string]any {
	s.t.Helper()
	before := s.stored()
	r := s.run(p, now, append(args, "--json")...)
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil || r.Code != code {
		s.t.Fatalf("exit %d, want %d: %v\n%s%s", r.Code, code, err, r.Out, r.Err)
	}
	e, _ := m["error"].(map[string]any)
	if e == nil || e["code"] != errCode {
		s.t.Fatalf("error %v, want %s:\n%s", e["code"], errCode, r.Out)
	}
	if after := s.stored(); !slices.EqualFunc(before, after, slices.Equal) {
		s.t.Fatalf("a refused change changed what the relays store:\nbefore %v\nafter  %v", before, after)
	}
	return e
}

func relaysAsked(t *testing.T, e map[string]any) []string {
	t.Helper()
	d, _ := e["details"].(map[string]any)
	ra, _ := d["relays_asked"].(map[string]any)
	if ra == nil || ra["converged"] != true {
		t.Fatalf("details.relays_asked %v, want a converged search", d["relays_asked"])
	}
	var out []string
	for _, u := range ra["asked"].([]any) {
		out = append(out, u.(string))
	}
	return out
}

// "Relay disagreement": the absence of an invitee's state from one relay is
// not proof that no state exists. Bob acknowledges Alice (so the add
// confirms him at once) and his newer state lives only on the relay his
// own announcement lists: Alice's add asks that relay, sees his state and
// refuses the state-only conflict, publishing nothing anywhere. With
// --relay (the relays pinned) that relay is not asked, and the preview
// says the relays were given.
func TestAddAsksTheRelaysTheInviteesAnnouncementLists(t *testing.T) {
	t.Parallel()
	s := newWriteRelayScene(t, 1)
	bobs := s.others[0]
	oidA, oidB := strings.Repeat("a", 40), strings.Repeat("b", 40)
	publish(t, s.home.URL(), alice.announce(t, s.id, 100), alice.state(t, s.id, 110, oidA),
		bob.announce(t, s.id, 200, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob), nostr.Tag{"relays", bobs.URL()}))
	publish(t, bobs.URL(), bob.state(t, s.id, 300, oidB))

	e := s.refusedJSON(alice, 1000, cmdutil.ExitRefused, "state-conflict", "repo", "edit", "--add-maintainer", bob.npub())
	if msg := e["message"].(string); !strings.Contains(msg, "update branch refs/heads/main from "+oidA+" to "+oidB) {
		t.Fatalf("the refusal does not reflect Bob's state on his own relay:\n%s", msg)
	}
	if got := relaysAsked(t, e); !slices.Equal(got, []string{s.home.URL(), bobs.URL()}) {
		t.Fatalf("relays asked %v, want Alice's and the one Bob's announcement lists", got)
	}

	// Pinned to Alice's relay, the add never sees Bob's state (it stops
	// later, on the objects of Alice's state no Git server advertises).
	reqs := bobs.ReqCount()
	r := s.run(alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--dry-run", "--json", "--relay", s.home.URL())
	if strings.Contains(r.Out, "state-conflict") || bobs.ReqCount() != reqs {
		t.Fatalf("pinned dry run asked Bob's relay or saw his state: exit %d\n%s", r.Code, r.Out)
	}
}

// An invitee with no announcement on the inviter's relays is found through
// his NIP-65 relay list: Bob's announcement (acknowledging Alice) and his
// differing state live only on his write relay, which the list on Alice's
// relay names. The add asks the write relay (never the read relay), sees
// that it would confirm Bob with his state, and refuses; nothing is stored.
func TestAddFindsTheInviteeThroughHisNIP65WriteRelay(t *testing.T) {
	t.Parallel()
	s := newWriteRelayScene(t, 2)
	write, read := s.others[0], s.others[1]
	oidA, oidB := strings.Repeat("a", 40), strings.Repeat("b", 40)
	publish(t, s.home.URL(), alice.announce(t, s.id, 100), alice.state(t, s.id, 110, oidA),
		bob.sign(t, 10002, 50, nostr.Tag{"r", write.URL(), "write"}, nostr.Tag{"r", read.URL(), "read"}))
	publish(t, write.URL(), bob.announce(t, s.id, 200, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)),
		bob.state(t, s.id, 300, oidB))

	e := s.refusedJSON(alice, 1000, cmdutil.ExitRefused, "state-conflict", "repo", "edit", "--add-maintainer", bob.npub())
	if msg := e["message"].(string); !strings.Contains(msg, oidB) {
		t.Fatalf("the refusal does not reflect Bob's state on his write relay:\n%s", msg)
	}
	if got := relaysAsked(t, e); !slices.Equal(got, []string{s.home.URL(), write.URL()}) {
		t.Fatalf("relays asked %v, want Alice's and Bob's write relay", got)
	}
	if n := read.ReqCount(); n != 0 {
		t.Fatalf("Bob's NIP-65 read relay got %d REQs", n)
	}
}

// The preview's checked list says which relays a write asked and that
// their set converged; the change is published to the relays given and
// verified.
func TestWritePreviewSaysWhichRelaysWereAsked(t *testing.T) {
	t.Parallel()
	s := newWriteRelayScene(t, 1)
	carols := s.others[0]
	publish(t, s.home.URL(), alice.announce(t, s.id, 100), carol.sign(t, 10002, 50, nostr.Tag{"r", carols.URL()}))
	h := s.run(alice, 999, "repo", "edit", "--add-maintainer", carol.npub(), "--dry-run")
	if h.Code != cmdutil.ExitOK || !strings.Contains(h.Out, "checked: 2 relays, ") {
		t.Fatalf("human preview lacks the relays asked: exit %d\n%s%s", h.Code, h.Out, h.Err)
	}
	if h := s.run(alice, 999, "repo", "edit", "--add-maintainer", carol.npub(), "--dry-run", "--verbose"); h.Code != cmdutil.ExitOK || !strings.Contains(h.Out, "relays asked: 2") {
		t.Fatalf("--verbose lacks which relays were asked: exit %d\n%s%s", h.Code, h.Out, h.Err)
	}
	r := s.run(alice, 1000, "repo", "edit", "--add-maintainer", carol.npub(), "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	checked := previewChecked(t, r.Out)
	want := fmt.Sprintf("relays asked: 2 (%s, %s): the 1 given and 1 that", s.home.URL(), carols.URL())
	if !strings.Contains(checked[0], want) || !strings.Contains(checked[0], "the set converged after 1 extra round") {
		t.Fatalf("checked[0] %q, want %q and the convergence", checked[0], want)
	}
	// Published where Alice's repository lives (the relays given, those her
	// announcement lists), not on Carol's write relay: that is where
	// Carol's events are, and it need not take Alice's.
	if n := len(carols.Stored(nostr.Filter{Kinds: []int{30617}, Authors: []string{alice.pk}})); n != 0 {
		t.Fatalf("Carol's write relay holds %d announcements of Alice, want none", n)
	}
	var m struct {
		Relays []struct {
			URL string `json:"url"`
		} `json:"relays"`
		Verified bool `json:"verified"`
	}
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil || !m.Verified || len(m.Relays) != 1 || m.Relays[0].URL != s.home.URL() {
		t.Fatalf("published to %+v (verified %v), want Alice's relay alone", m.Relays, m.Verified)
	}
}

// A write whose events name more relays than the bound (Bob's
// announcement lists 40) exits 4 with relay-bound, says so in plain words
// with the change to rerun with --relay, asks none of them and publishes
// nothing.
func TestWriteThatHitsTheRelayBoundExits4AndPublishesNothing(t *testing.T) {
	t.Parallel()
	s := newWriteRelayScene(t, 1)
	sink := s.others[0]
	many := nostr.Tag{"relays"}
	for i := range 40 {
		many = append(many, fmt.Sprintf("%s/r%02d", sink.URL(), i))
	}
	publish(t, s.home.URL(), alice.announce(t, s.id, 100), bob.announce(t, s.id, 200, role("M", alice, "200"), role("m", bob, "200"), many))
	e := s.refusedJSON(alice, 1000, cmdutil.ExitIncomplete, "relay-bound", "repo", "edit", "--add-maintainer", bob.npub())
	if n := sink.ReqCount(); n != 0 {
		t.Fatalf("the relays past the bound got %d REQs", n)
	}
	d := e["details"].(map[string]any)
	if d["limit"] != "relays" || d["max_relays"] != float64(32) || len(d["wanted"].([]any)) != 32 {
		t.Fatalf("details %v", d)
	}
	cmds := fmt.Sprint(e["commands"])
	if !strings.Contains(cmds, "roster repo edit --add-maintainer "+bob.npub()) || !strings.Contains(cmds, "--relay wss://<relay>") {
		t.Fatalf("commands %s, want the change with --relay", cmds)
	}
	h := s.run(alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	if h.Code != cmdutil.ExitIncomplete || !strings.Contains(h.Err, "more than 32 relays") || !strings.Contains(h.Err, "nothing was decided or published") {
		t.Fatalf("exit %d, stderr:\n%s", h.Code, h.Err)
	}
	// `repo state publish` discovers the same way (its discovery comes
	// before it looks for a checkout): here Alice's own announcement lists
	// the 40 relays.
	sp := newWriteRelayScene(t, 1)
	publish(t, sp.home.URL(), alice.announce(t, sp.id, 100, many))
	sp.refusedJSON(alice, 1000, cmdutil.ExitIncomplete, "relay-bound", "repo", "state", "publish")
	if n := sink.ReqCount(); n != 0 {
		t.Fatalf("state publish asked the relays past the bound: %d REQs", n)
	}
}

// previewChecked is preview.state.checked of a roster.mutation/v1 document.
func previewChecked(t *testing.T, out string) []string {
	t.Helper()
	var m struct {
		Preview struct {
			State struct {
				Checked []string `json:"checked"`
			} `json:"state"`
		} `json:"preview"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil || len(m.Preview.State.Checked) == 0 {
		t.Fatalf("no preview.state.checked: %v\n%s", err, out)
	}
	return m.Preview.State.Checked
}

// Round trips of a write that learns relays (docs/PERFORMANCE.md, "Round
// trips per command"): Alice's announcement lists r1, Carol's NIP-65 list
// (on Alice's relay, read in the first request) names r2 as a write relay,
// and Carol's own announcement there lists r3, learned a round later. Cold,
// every learned relay gets 5 REQs (the round that learned it, the
// deletions, the recheck, the read-back, the re-read after the cut
// window), the relay given one more (the
// people's profiles, beside the deletions); the EVENT goes to Alice's
// relays (given, and listed by her announcement) only.
func TestRoundTripsOfAWriteThatLearnsRelays(t *testing.T) {
	t.Parallel()
	s := newWriteRelayScene(t, 3)
	r1, r2, r3 := s.others[0], s.others[1], s.others[2]
	publish(t, s.home.URL(), alice.announce(t, s.id, 100, nostr.Tag{"relays", s.home.URL(), r1.URL()}),
		carol.sign(t, 10002, 50, nostr.Tag{"r", r2.URL(), "write"}))
	publish(t, r2.URL(), carol.announce(t, s.id, 90, nostr.Tag{"relays", r3.URL()}))
	mark := markTraffic(append([]*devrelay.Relay{s.home}, s.others...))
	r := s.run(alice, 1000, "repo", "edit", "--add-maintainer", carol.npub(), "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	got := mark.since()
	wantTraffic(t, "repo edit --add-maintainer learning 3 relays in 2 rounds: the relay given (with the profiles' REQ)", got[:1], 6, 1)
	wantTraffic(t, "repo edit --add-maintainer learning 3 relays in 2 rounds: the relay Alice's announcement lists", got[1:2], 5, 1)
	wantTraffic(t, "repo edit --add-maintainer learning 3 relays in 2 rounds: Carol's", got[2:], 5, 0)
	if checked := previewChecked(t, r.Out); !strings.Contains(checked[0], "relays asked: 4") || !strings.Contains(checked[0], "converged after 2 extra rounds") {
		t.Fatalf("checked %q", checked[0])
	}
}

// "The comparison includes Bob's latest state even when it predates the
// invitation", wherever Bob keeps it: accepting, the runner's own NIP-65
// write relay is asked too, so his older, differing state that lives only
// there is compared and the acceptance refused; nothing is stored.
func TestAcceptAsksTheInviteesOwnWriteRelay(t *testing.T) {
	t.Parallel()
	s := newWriteRelayScene(t, 1)
	write := s.others[0]
	oidA, oidB := strings.Repeat("a", 40), strings.Repeat("b", 40)
	publish(t, s.home.URL(), alice.announce(t, s.id, 100, role("M", alice), role("m", bob, "100"), maintainersTag(alice, bob)),
		alice.state(t, s.id, 110, oidA), bob.sign(t, 10002, 40, nostr.Tag{"r", write.URL()}))
	publish(t, write.URL(), bob.state(t, s.id, 50, oidB))
	e := s.refusedJSON(bob, 2000, cmdutil.ExitRefused, "state-conflict", "repo", "accept")
	if msg := e["message"].(string); !strings.Contains(msg, oidB) {
		t.Fatalf("the refusal does not reflect Bob's state on his write relay:\n%s", msg)
	}
	if got := relaysAsked(t, e); !slices.Equal(got, []string{s.home.URL(), write.URL()}) {
		t.Fatalf("relays asked %v", got)
	}
}
