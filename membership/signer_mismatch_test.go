package membership

import (
	"context"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/relaypool"
)

// otherKeySigner reports testSecret's key and signs with another one, as a
// misbehaving bunker might.
type otherKeySigner struct{ instantSigner }

func (otherKeySigner) SignEvent(_ context.Context, e *nostr.Event) error {
	return e.Sign(nostr.GeneratePrivateKey())
}

// Rule (one code per failure, docs/exit-codes.md): a signer that signs with
// another key than the preview's author stops the change before anything
// is sent with the code `repo state publish` gives it too,
// signer-mismatch, class unexpected (exit 1).
func TestASignerThatSignsWithAnotherKeyIsASignerMismatch(t *testing.T) {
	base := announcement(t, 100)
	fresh := time.Now()
	cut := &relaypool.FetchResult{Events: []*nostr.Event{base}, Complete: true, Relays: []relaypool.RelayReport{report("wss://a", fresh)}}
	p := Pipeline{Signer: otherKeySigner{}, Relays: relayFuncs{}, Now: func() time.Time { return time.Unix(300, 0) }}
	out := previewed(base)
	out.Plan.Tags = nostr.Tags{{"d", "repo"}}
	err := p.signAndPublish(context.Background(), out, cut, ptr(cutRounds))
	f := failure.Of(err)
	if f == nil || f.Code != "signer-mismatch" || f.Class != failure.Unexpected || len(out.Published) != 0 {
		t.Fatalf("got %v, want signer-mismatch before anything is sent", err)
	}
}
