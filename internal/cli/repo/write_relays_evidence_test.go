package repo_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (relays learned from people nobody the write involves reaches are
// evidence only): Dave, whom no one named by the write reaches and who is
// not in Alice's component, announces the same identifier and lists a
// relay that nothing listens at, and a second one that answers. Alice's
// add of Carol asks both, does not count them toward the bound, is not
// blocked by the dead one (exit 0, published and verified) and says in its
// preview's checked list that it did not answer.
func TestAnUnrelatedAnnouncementsDeadRelayDoesNotBlockAWrite(t *testing.T) {
	t.Parallel()
	s := clitest.NewWriteRelayScene(t, 1)
	live := s.Others[0]
	dead := "ws://127.0.0.1:1/daves-relay"
	clitest.Publish(t, s.Home.URL(), clitest.Alice.Announce(t, s.Id, 100),
		clitest.Dave.Announce(t, s.Id, 200, clitest.Role("M", clitest.Dave), nostr.Tag{"relays", dead, live.URL()}))
	start := time.Now()
	r := s.Run(clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--json")
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("took %v", took)
	}
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d, want 0\n%s%s", r.Code, r.Out, r.Err)
	}
	if live.ReqCount() == 0 {
		t.Fatalf("the evidence-only relay that answers was not asked")
	}
	checked := previewChecked(t, r.Out)
	if !strings.Contains(checked[0], "evidence only") || !strings.Contains(checked[0], "did not answer: "+dead) {
		t.Fatalf("checked[0] does not name the unanswered evidence-only relay:\n%s", checked[0])
	}
	var m struct {
		Verified bool `json:"verified"`
	}
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil || !m.Verified {
		t.Fatalf("not verified (%v):\n%s", err, r.Out)
	}
	got := s.Home.Stored(nostr.Filter{Kinds: []int{30617}, Authors: []string{clitest.Alice.Pk}})
	if len(got) != 1 || !strings.Contains(fmt.Sprint(got[0].Tags), clitest.Carol.Pk) {
		t.Fatalf("Alice's relay holds %v, want her announcement naming Carol", got)
	}
}

// Rule (evidence only, in the recheck too): the evidence-only relay
// answers the preview's rounds and then refuses every REQ, so the recheck
// and the re-read after publishing get no answer from it. The add still
// exits 0, verified: its silence is not missing evidence there either.
func TestAnEvidenceOnlyRelaySilentInTheRecheckDoesNotBlockAWrite(t *testing.T) {
	t.Parallel()
	s := clitest.NewWriteRelayScene(t, 1)
	live := s.Others[0]
	clitest.Publish(t, s.Home.URL(), clitest.Alice.Announce(t, s.Id, 100),
		clitest.Dave.Announce(t, s.Id, 200, clitest.Role("M", clitest.Dave), nostr.Tag{"relays", live.URL()}))
	if r := s.Run(clitest.Alice, 999, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--dry-run", "--json"); r.Code != cmdutil.ExitOK {
		t.Fatalf("dry run: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	preview := live.ReqCount()
	if preview == 0 {
		t.Fatalf("the evidence-only relay was not asked")
	}
	// The same preview again, then nothing.
	live.SetMisbehaviour(devrelay.Misbehaviour{RefuseREQ: func(nostr.Filter) string {
		if live.ReqCount() > 2*preview {
			return "blocked: gone quiet"
		}
		return ""
	}})
	r := s.Run(clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--json")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, `"verified": true`) {
		t.Fatalf("exit %d, want 0 and verified\n%s%s", r.Code, r.Out, r.Err)
	}
	if live.ReqCount() <= 2*preview {
		t.Fatalf("the evidence-only relay got %d REQs, want more than the %d of the preview (the recheck refused)", live.ReqCount(), 2*preview)
	}
}
