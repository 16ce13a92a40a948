package projects

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// Keys become public keys and signed events the same way in every NIP-PC
// and NIP-29 test package.
var pub, sign = testkeys.Pub, testkeys.Sign

// Fixed test keys: the relay identity, the project owner and a collaborator.
var (
	relaySK = strings.Repeat("01", 32)
	ownerSK = strings.Repeat("02", 32)
	otherSK = strings.Repeat("03", 32)
)

const (
	chanA = "11111111-1111-4111-8111-111111111111"
	chanB = "22222222-2222-4222-8222-222222222222"
	chanC = "33333333-3333-4333-8333-333333333333"
	home  = "99999999-9999-4999-8999-999999999999"
	idHex = "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"
	chHex = "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
)

func testCoord(t testing.TB) Coordinate {
	return Coordinate{Owner: pub(t, ownerSK), D: "demo"}
}

// stateEvent is a valid relay-signed Project State for c at rev, with content
// and optional tag edits applied before signing.
func stateEvent(t testing.TB, c Coordinate, rev, content string, edit func(nostr.Tags) nostr.Tags) *nostr.Event {
	t.Helper()
	tags := nostr.Tags{
		{"d", c.Address()},
		{"a", c.String()},
		{"rev", rev},
		{"e", idHex, "", "identity"},
		{"e", chHex, "", "change"},
	}
	if edit != nil {
		tags = edit(tags)
	}
	return sign(t, relaySK, &nostr.Event{Kind: KindState, CreatedAt: 1700000000, Tags: tags, Content: content})
}

const liveContent = `{"v":1,"deleted":false,"project_tags":[["d","demo"],["name","Demo"],["buzz-channel","99999999-9999-4999-8999-999999999999"],["buzz-related-channel","11111111-1111-4111-8111-111111111111"]]}`
