package repo_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (only the component's own role-scoped events count toward the
// bounds): a stranger's 300 KiB issue that Alice closed, beside strangers'
// big issues nobody acted on, does not refuse Alice's next membership
// change: the issue is compared like any other, and the change goes
// through.
func TestAStrangersBigIssueThatAMaintainerClosedDoesNotRefuseAChange(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	a := nostr.Tag{"a", "30617:" + clitest.Alice.Pk + ":" + w.Id}
	big := clitest.Erin.Sign(t, 1621, 200, a, nostr.Tag{"subject", "big"}, nostr.Tag{"body", strings.Repeat("x", 300<<10)})
	w.Seed(clitest.Alice.Announce(t, w.Id, 100), big, clitest.Alice.Sign(t, 1632, 300, a, nostr.Tag{"e", big.ID, "", "root"}))
	w.Relays[0].SetMisbehaviour(devrelay.Misbehaviour{Strangers: func(f nostr.Filter) devrelay.Strangers {
		if slices.Contains(f.Kinds, 1621) {
			return devrelay.Strangers{Kind: 1621, Count: 4, Bytes: 300 << 10, Newest: 900}
		}
		return devrelay.Strangers{}
	}})
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "1000"), clitest.Projection(clitest.Alice, clitest.Bob))
}

// Rule (an over-limit refusal names what it left out and what to do): a
// maintainer's own cover note over the size bound still refuses the change
// (it could decide a result), and the refusal names the event, suggests
// check-event on it and says how to clear it.
func TestAMaintainersOversizedRoleScopedEventIsNamedInTheRefusal(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	a := nostr.Tag{"a", "30617:" + clitest.Alice.Pk + ":" + w.Id}
	issue := clitest.Erin.Sign(t, 1621, 200, a)
	note := clitest.Alice.Sign(t, 1624, 300, a, nostr.Tag{"e", issue.ID, "", "root"}, nostr.Tag{"body", strings.Repeat("y", 300<<10)})
	w.Seed(clitest.Alice.Announce(t, w.Id, 100), issue, note)
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "role-actions-over-limit", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	e := m["error"].(map[string]any)
	if msg := e["message"].(string); !strings.Contains(msg, "left out: "+note.ID) || !strings.Contains(msg, "delete it (NIP-09)") {
		t.Errorf("message does not name the event or say what to do:\n%s", msg)
	}
	if left := clitest.ToStrings(e["details"].(map[string]any)["left_out"]); !slices.Equal(left, []string{note.ID}) {
		t.Errorf("details.left_out %v", left)
	}
	if cmds := strings.Join(clitest.ToStrings(e["commands"]), "\n"); !strings.Contains(cmds, "check-event "+note.ID) {
		t.Errorf("commands do not suggest check-event on it:\n%s", cmds)
	}
}
