package swrelay

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/pcrelay"
	"github.com/roster-cli/roster/workspace/sections"
)

// docs/architecture.md: NIP-SW and NIP-PC both allocate kind 30623. One relay
// runs both authorities when exactly one claims the kind, and each passes the
// other's projections through its View.
func TestCoexistsWithTheNIPPCAuthority(t *testing.T) {
	if _, err := devrelay.New(devrelay.Options{Authorities: []devrelay.Authority{New(Options{}), pcrelay.New(pcrelay.Options{})}}); err == nil {
		t.Fatal("two authorities claiming kind 30623 were accepted")
	}
	sw := New(Options{})
	r := devrelay.StartN(t, 1, devrelay.Options{Authorities: []devrelay.Authority{sw, pcrelay.New(pcrelay.Options{LeaveStateKind: true})}})[0]
	_, _, owner := importInto(t, r)
	c := connectAs(t, r, &owner)
	got := reqAll(t, c, nostr.Filter{Kinds: []int{sections.KindProjection}, Tags: nostr.TagMap{"d": {owner.pk}}})
	if len(got) != 1 {
		t.Fatalf("owner got %d workspace projections through both views", len(got))
	}
	if _, err := sections.VerifyProjection(got[0], r.Self(), owner.pk); err != nil {
		t.Fatal(err)
	}
}
