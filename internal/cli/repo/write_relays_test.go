package repo_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

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
	s := clitest.NewWriteRelayScene(t, 1)
	bobs := s.Others[0]
	oidA, oidB := strings.Repeat("a", 40), strings.Repeat("b", 40)
	clitest.Publish(t, s.Home.URL(), clitest.Alice.Announce(t, s.Id, 100), clitest.Alice.State(t, s.Id, 110, oidA),
		clitest.Bob.Announce(t, s.Id, 200, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob), nostr.Tag{"relays", bobs.URL()}))
	clitest.Publish(t, bobs.URL(), clitest.Bob.State(t, s.Id, 300, oidB))

	e := s.RefusedJSON(clitest.Alice, 1000, cmdutil.ExitRefused, "state-conflict", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	if msg := e["message"].(string); !strings.Contains(msg, "update branch refs/heads/main from "+oidA+" to "+oidB) {
		t.Fatalf("the refusal does not reflect Bob's state on his own relay:\n%s", msg)
	}
	if got := relaysAsked(t, e); !slices.Equal(got, []string{s.Home.URL(), bobs.URL()}) {
		t.Fatalf("relays asked %v, want Alice's and the one Bob's announcement lists", got)
	}

	// Pinned to Alice's relay, the add never sees Bob's state (it stops
	// later, on the objects of Alice's state no Git server advertises).
	reqs := bobs.ReqCount()
	r := s.Run(clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--dry-run", "--json", "--relay", s.Home.URL())
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
	s := clitest.NewWriteRelayScene(t, 2)
	write, read := s.Others[0], s.Others[1]
	oidA, oidB := strings.Repeat("a", 40), strings.Repeat("b", 40)
	clitest.Publish(t, s.Home.URL(), clitest.Alice.Announce(t, s.Id, 100), clitest.Alice.State(t, s.Id, 110, oidA),
		clitest.Bob.Sign(t, 10002, 50, nostr.Tag{"r", write.URL(), "write"}, nostr.Tag{"r", read.URL(), "read"}))
	clitest.Publish(t, write.URL(), clitest.Bob.Announce(t, s.Id, 200, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Bob.State(t, s.Id, 300, oidB))

	e := s.RefusedJSON(clitest.Alice, 1000, cmdutil.ExitRefused, "state-conflict", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	if msg := e["message"].(string); !strings.Contains(msg, oidB) {
		t.Fatalf("the refusal does not reflect Bob's state on his write relay:\n%s", msg)
	}
	if got := relaysAsked(t, e); !slices.Equal(got, []string{s.Home.URL(), write.URL()}) {
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
	s := clitest.NewWriteRelayScene(t, 1)
	carols := s.Others[0]
	clitest.Publish(t, s.Home.URL(), clitest.Alice.Announce(t, s.Id, 100), clitest.Carol.Sign(t, 10002, 50, nostr.Tag{"r", carols.URL()}))
	h := s.Run(clitest.Alice, 999, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--dry-run")
	if h.Code != cmdutil.ExitOK || !strings.Contains(h.Out, "checked: 2 relays, ") {
		t.Fatalf("human preview lacks the relays asked: exit %d\n%s%s", h.Code, h.Out, h.Err)
	}
	if h := s.Run(clitest.Alice, 999, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--dry-run", "--verbose"); h.Code != cmdutil.ExitOK || !strings.Contains(h.Out, "relays asked: 2") {
		t.Fatalf("--verbose lacks which relays were asked: exit %d\n%s%s", h.Code, h.Out, h.Err)
	}
	r := s.Run(clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	checked := previewChecked(t, r.Out)
	want := fmt.Sprintf("relays asked: 2 (%s, %s): the 1 given and 1 that", s.Home.URL(), carols.URL())
	if !strings.Contains(checked[0], want) || !strings.Contains(checked[0], "the set converged after 1 extra round") {
		t.Fatalf("checked[0] %q, want %q and the convergence", checked[0], want)
	}
	// Published where Alice's repository lives (the relays given, those her
	// announcement lists), not on Carol's write relay: that is where
	// Carol's events are, and it need not take Alice's.
	if n := len(carols.Stored(nostr.Filter{Kinds: []int{30617}, Authors: []string{clitest.Alice.Pk}})); n != 0 {
		t.Fatalf("Carol's write relay holds %d announcements of Alice, want none", n)
	}
	var m struct {
		Relays []struct {
			URL string `json:"url"`
		} `json:"relays"`
		Verified bool `json:"verified"`
	}
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil || !m.Verified || len(m.Relays) != 1 || m.Relays[0].URL != s.Home.URL() {
		t.Fatalf("published to %+v (verified %v), want Alice's relay alone", m.Relays, m.Verified)
	}
}

// A write whose events name more relays than the bound (Bob's
// announcement lists 40) exits 4 with relay-bound, says so in plain words
// with the change to rerun with --relay, asks none of them and publishes
// nothing.
func TestWriteThatHitsTheRelayBoundExits4AndPublishesNothing(t *testing.T) {
	t.Parallel()
	s := clitest.NewWriteRelayScene(t, 1)
	sink := s.Others[0]
	many := nostr.Tag{"relays"}
	for i := range 40 {
		many = append(many, fmt.Sprintf("%s/r%02d", sink.URL(), i))
	}
	clitest.Publish(t, s.Home.URL(), clitest.Alice.Announce(t, s.Id, 100), clitest.Bob.Announce(t, s.Id, 200, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), many))
	e := s.RefusedJSON(clitest.Alice, 1000, cmdutil.ExitIncomplete, "relay-bound", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	if n := sink.ReqCount(); n != 0 {
		t.Fatalf("the relays past the bound got %d REQs", n)
	}
	d := e["details"].(map[string]any)
	if d["limit"] != "relays" || d["max_relays"] != float64(32) || len(d["wanted"].([]any)) != 32 {
		t.Fatalf("details %v", d)
	}
	cmds := fmt.Sprint(e["commands"])
	if !strings.Contains(cmds, "roster repo edit --add-maintainer "+clitest.Bob.Npub()) || !strings.Contains(cmds, "--relay wss://<relay>") {
		t.Fatalf("commands %s, want the change with --relay", cmds)
	}
	h := s.Run(clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	if h.Code != cmdutil.ExitIncomplete || !strings.Contains(h.Err, "more than 32 relays") || !strings.Contains(h.Err, "nothing was decided or published") {
		t.Fatalf("exit %d, stderr:\n%s", h.Code, h.Err)
	}
	// `repo state publish` discovers the same way (its discovery comes
	// before it looks for a checkout): here Alice's own announcement lists
	// the 40 relays.
	sp := clitest.NewWriteRelayScene(t, 1)
	clitest.Publish(t, sp.Home.URL(), clitest.Alice.Announce(t, sp.Id, 100, many))
	sp.RefusedJSON(clitest.Alice, 1000, cmdutil.ExitIncomplete, "relay-bound", "repo", "state", "publish")
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
	s := clitest.NewWriteRelayScene(t, 3)
	r1, r2, r3 := s.Others[0], s.Others[1], s.Others[2]
	clitest.Publish(t, s.Home.URL(), clitest.Alice.Announce(t, s.Id, 100, nostr.Tag{"relays", s.Home.URL(), r1.URL()}),
		clitest.Carol.Sign(t, 10002, 50, nostr.Tag{"r", r2.URL(), "write"}))
	clitest.Publish(t, r2.URL(), clitest.Carol.Announce(t, s.Id, 90, nostr.Tag{"relays", r3.URL()}))
	mark := clitest.MarkTraffic(append([]*devrelay.Relay{s.Home}, s.Others...))
	r := s.Run(clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	got := mark.Since()
	clitest.WantTraffic(t, "repo edit --add-maintainer learning 3 relays in 2 rounds: the relay given (with the profiles' REQ)", got[:1], 6, 1)
	clitest.WantTraffic(t, "repo edit --add-maintainer learning 3 relays in 2 rounds: the relay Alice's announcement lists", got[1:2], 5, 1)
	clitest.WantTraffic(t, "repo edit --add-maintainer learning 3 relays in 2 rounds: Carol's", got[2:], 5, 0)
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
	s := clitest.NewWriteRelayScene(t, 1)
	write := s.Others[0]
	oidA, oidB := strings.Repeat("a", 40), strings.Repeat("b", 40)
	clitest.Publish(t, s.Home.URL(), clitest.Alice.Announce(t, s.Id, 100, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "100"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Alice.State(t, s.Id, 110, oidA), clitest.Bob.Sign(t, 10002, 40, nostr.Tag{"r", write.URL()}))
	clitest.Publish(t, write.URL(), clitest.Bob.State(t, s.Id, 50, oidB))
	e := s.RefusedJSON(clitest.Bob, 2000, cmdutil.ExitRefused, "state-conflict", "repo", "accept")
	if msg := e["message"].(string); !strings.Contains(msg, oidB) {
		t.Fatalf("the refusal does not reflect Bob's state on his write relay:\n%s", msg)
	}
	if got := relaysAsked(t, e); !slices.Equal(got, []string{s.Home.URL(), write.URL()}) {
		t.Fatalf("relays asked %v", got)
	}
}
