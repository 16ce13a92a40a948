package repo_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// forgedOn lists the ids a read's JSON says relay u served forged copies of.
func forgedOn(out map[string]any, u string) []string {
	rels, _ := out["relays"].([]any)
	for _, r := range rels {
		m, _ := r.(map[string]any)
		if m["url"] == u {
			return clitest.ToStrings(m["forged"])
		}
	}
	return nil
}

// Rule (signatures per copy): with the hostile relay asked first and every
// event it serves carrying a signature that does not verify, the honest
// relay's valid copies count: `roster repo`, `repo health` and a write all
// work, and the read names the relay that served the forgeries.
func TestForgedCopiesOnTheFirstRelayDoNotHideTheValidOnesOfTheSecond(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 2)
	ann := clitest.Alice.Announce(t, w.Id, 100)
	w.Seed(ann)
	hostile := w.Relays[0]
	hostile.SetMisbehaviour(devrelay.Misbehaviour{BadSignature: func(*nostr.Event) bool { return true }})
	read := w.Ok(clitest.Alice, clitest.Alice, 500, "repo")
	if read["complete"] != true || !slices.Contains(forgedOn(read, hostile.URL()), ann.ID) {
		t.Fatalf("complete %v, forged on the hostile relay %v; want complete and Alice's announcement named\n%v", read["complete"], forgedOn(read, hostile.URL()), read)
	}
	if got := clitest.Members(t, read); got["alice"] != "confirmed" {
		t.Fatalf("Alice is not a maintainer in the read: %v", got)
	}
	human := w.Run(clitest.Alice, clitest.Alice, 500, "repo")
	if human.Code != cmdutil.ExitOK || !strings.Contains(human.Out, "forged copies (bad signature) of "+ann.ID) {
		t.Fatalf("exit %d; the human read does not name the forged copy:\n%s%s", human.Code, human.Out, human.Err)
	}
	w.Ok(clitest.Alice, clitest.Alice, 500, "repo", "health")
	// The write is built on the valid copies and published to both relays;
	// the hostile relay serves it back only forged, which is said (exit 6,
	// published but not verified there), never taken for a valid copy.
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json")
	if r.Code != cmdutil.ExitUnverified || !strings.Contains(r.Out, hostile.URL()+" accepted it but returned it on read-back only as a forged copy") || strings.Contains(r.Out, w.Relays[1].URL()+" accepted") {
		t.Fatalf("exit %d, want 6 naming only the hostile relay's forged read-back\n%s%s", r.Code, r.Out, r.Err)
	}
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "1000"), clitest.Projection(clitest.Alice, clitest.Bob))
}

// Rule (signatures per copy, no rollback): a hostile relay serves Alice's
// previous valid announcement and a forged copy of her current one, which
// invites Bob. A reader on another machine (nothing cached) sees the
// current version, from the honest relay, and a write there keeps Bob's
// pending invitation.
func TestARelayServingTheOldVersionAndAForgedCurrentOneCannotRollBack(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 2)
	old := clitest.Alice.Announce(t, w.Id, 100)
	w.Seed(old)
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	var current *nostr.Event
	for _, e := range w.Relays[1].Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{clitest.Alice.Pk}}) {
		if current == nil || graph.Newer(e, current) {
			current = e
		}
	}
	hostile := w.Relays[0]
	hostile.Inject(old)
	hostile.SetMisbehaviour(devrelay.Misbehaviour{BadSignature: func(e *nostr.Event) bool { return e.ID == current.ID }})
	other := &clitest.MutWorld{T: t, Relays: w.Relays, Id: w.Id, Home: clitest.TestEnv(t), Dir: t.TempDir()}
	read := other.Ok(clitest.Alice, clitest.Alice, 1500, "repo")
	if got := clitest.Members(t, read); got["bob"] != "invited" {
		t.Fatalf("the read lost Bob's invitation (rolled back to %s): %v\n%v", old.ID, got, read)
	}
	if !slices.Contains(forgedOn(read, hostile.URL()), current.ID) {
		t.Errorf("the read does not name the forged copy of %s: %v", current.ID, forgedOn(read, hostile.URL()))
	}
	out := other.Ok(clitest.Alice, clitest.Alice, 2000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	if out["verified"] != true {
		t.Fatalf("verified %v\n%v", out["verified"], out)
	}
	got := fmt.Sprint(w.Latest(clitest.Alice))
	if !strings.Contains(got, "bob") || !strings.Contains(got, "carol") {
		t.Fatalf("Alice's latest announcement %s, want Bob still invited beside Carol", got)
	}
}
