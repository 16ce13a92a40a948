package project_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/btcsuite/btcd/btcutil/bech32"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/project"
	"github.com/roster-cli/roster/workspace/projects"
)

// Rule (docs/exit-codes.md: malformed input is exit 2): an naddr whose
// kind field is shorter than 4 bytes (go-nostr's nip19.Decode panics on it)
// is refused as not a valid naddr, never a crash.
func TestProjectShowRefusesAnNaddrWithAShortKindWithoutPanicking(t *testing.T) {
	t.Parallel()
	tlv := []byte{0, 4, 'd', 'e', 'm', 'o', 2, 32}
	tlv = append(tlv, make([]byte, 32)...)
	tlv = append(tlv, 3, 1, 7)
	bits, err := bech32.ConvertBits(tlv, 8, 5, true)
	if err != nil {
		t.Fatal(err)
	}
	naddr, err := bech32.Encode("naddr", bits)
	if err != nil {
		t.Fatal(err)
	}
	r := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.Roster(t, "project", "show", naddr, "--relay", "ws://127.0.0.1:1")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "is not a valid naddr") {
		t.Fatalf("exit %d %s", r.Code, r.Err)
	}
}

// Rule (projectParseArg): an naddr of kind 30621 names the project and
// brings its relay hints.
func TestProjectNaddrNamesTheProjectAndItsRelayHints(t *testing.T) {
	t.Parallel()
	owner := strings.Repeat("ab", 32)
	naddr, err := nip19.EncodeEntity(owner, projects.KindIdentity, "demo", []string{"wss://relay.example"})
	if err != nil {
		t.Fatal(err)
	}
	c, hints, err := project.ProjectParseArg(naddr)
	if err != nil || c != (projects.Coordinate{Owner: owner, D: "demo"}) || !slices.Equal(hints, []string{"wss://relay.example"}) {
		t.Fatalf("%+v %v %v", c, hints, err)
	}
	other, _ := nip19.EncodeEntity(owner, 30617, "demo", nil)
	if _, _, err := project.ProjectParseArg(other); err == nil || !strings.Contains(err.Error(), "not a kind 30621 project") {
		t.Fatalf("kind 30617 naddr: %v", err)
	}
}
