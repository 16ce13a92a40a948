package pipeline

import (
	"testing"

	"github.com/roster-cli/roster/relaypool"
)

// A relay's OK false is classified by its NIP-01 prefix: a reply means
// nothing committed (refused, or rate-limited to retry), no reply may hide a
// commit.
func TestRejectionMapsOKPrefixesToClassAndCode(t *testing.T) {
	for _, c := range []struct {
		rep   relaypool.PublishReport
		class Class
		code  string
	}{
		{relaypool.PublishReport{Replied: true, Message: "conflict: revision 3 is not current"}, Refused, CodeConflict},
		{relaypool.PublishReport{Replied: true, Message: "rate-limited: slow down"}, Incomplete, CodeRateLimited},
		{relaypool.PublishReport{Replied: true, Message: "restricted: not an admin"}, Refused, CodeRelayRejected},
		{relaypool.PublishReport{Replied: true, Message: "invalid: bad tag"}, Refused, CodeRelayRejected},
		{relaypool.PublishReport{Replied: true, Message: "blocked: deleted"}, Refused, CodeRelayRejected},
		{relaypool.PublishReport{Replied: true, Message: "error: database down"}, Unverified, CodeUnconfirmed},
		{relaypool.PublishReport{Message: "timeout: the relay did not answer in time"}, Unverified, CodeUnconfirmed},
		{relaypool.PublishReport{Message: "auth-required: authentication failed: no key"}, Refused, CodeRelayRejected},
		{relaypool.PublishReport{Message: "connection reset"}, Unverified, CodeUnconfirmed},
		{relaypool.PublishReport{Replied: true}, Unverified, CodeUnconfirmed},
	} {
		e := Rejection(c.rep, "ws://r", "the command", nil, nil)
		if e == nil || e.Class != c.class || e.Code != c.code {
			t.Errorf("%q (replied %v): %+v, want class %d code %s", c.rep.Message, c.rep.Replied, e, c.class, c.code)
		}
	}
	if Rejection(relaypool.PublishReport{OK: true, Replied: true}, "ws://r", "x", nil, nil) != nil {
		t.Error("an accepted write is not a rejection")
	}
}
