package hooks

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// maintainers.md: "Successful confirmation ... invalidates state derived
// from the invitee's former component. No push or automatic kind 30618
// publication is allowed until a fresh fetch verifies the accepted state
// against the local refs." While a confirmation awaits that fetch
// (FreshFetch), incomplete evidence refuses the push instead of letting it
// through, and every pushed ref is compared with the accepted state even
// when the signer has published a state since.
func TestGuardAfterConfirmationNeedsAFreshFetchBeforeTheNextPush(t *testing.T) {
	events := []*nostr.Event{
		alice.announce(t, 1000, roleTag("M", alice), roleTag("m", bob, "200"), maint(alice, bob)),
		bob.announce(t, 1001, roleTag("M", alice, "200"), roleTag("m", bob, "200"), maint(alice, bob)),
		alice.state(t, 1003, oidState),
	}
	in := input(t, bob, events, push("refs/heads/main", oidState))
	in.FreshFetch, in.Complete, in.Unanswered = true, false, []string{"wss://silent.example"}
	d := Guard(in)
	if !d.Refuse || d.Finding == nil || d.Finding.Reason != ReasonNeedsFreshFetch ||
		!strings.Contains(d.Finding.Message, "wss://silent.example did not answer") || !strings.Contains(d.Finding.Message, "git push --no-verify") {
		t.Fatalf("incomplete evidence after a confirmation: %+v", d)
	}
	// Without the pending confirmation, the same evidence lets the push through.
	in.FreshFetch = false
	if d := Guard(in); d.Refuse {
		t.Fatalf("without a pending confirmation the budget rule applies: %+v", d)
	}
	// A complete read: matching refs go on; a state bob published since his
	// confirmation does not exempt a diverged ref.
	in.FreshFetch, in.Complete = true, true
	if d := Guard(in); d.Refuse || len(d.Checked) != 1 || d.Checked[0].Verdict != VerdictDescends {
		t.Fatalf("matching refs on a complete read: %+v", d)
	}
	since := append(append([]*nostr.Event{}, events...), bob.state(t, 1004, oidSide))
	in = input(t, bob, since, push("refs/heads/main", oidSide))
	if st := in.StateAuthor; st != alice.pk && st != bob.pk {
		t.Fatalf("no state resolved: %q", st)
	}
	in.StateRefs = map[string]string{"refs/heads/main": oidState}
	in.FreshFetch = true
	if d := Guard(in); !d.Refuse || d.Finding == nil || d.Finding.Reason != ReasonNotDescended {
		t.Fatalf("a diverged ref after a confirmation went through: %+v", d)
	}
}
