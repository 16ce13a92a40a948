package relaypool_test

import (
	"context"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/relaypool"
)

// readerOnly is a relay-side authority that shows kind 30990 events only to
// the reader named in their `p` tag, and never refuses a REQ: the NIP-SW
// shape of "read authorization at every delivery surface".
type readerOnly struct{}

func (readerOnly) Kinds() []int { return nil }
func (readerOnly) Ingest(context.Context, devrelay.Env, string, *nostr.Event) ([]*nostr.Event, error) {
	return nil, nil
}
func (readerOnly) View(_ devrelay.Env, reader string, evt *nostr.Event) *nostr.Event {
	if evt.Kind == 30990 && evt.Tags.Find("p")[1] != reader {
		return nil
	}
	return evt
}

// Options.AuthFirst: a relay that withholds instead of refusing only shows
// a reader's events once the connection is authenticated.
func TestAuthFirstAuthenticatesBeforeTheFirstRequest(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{Authorities: []devrelay.Authority{readerOnly{}}})
	box := signed(t, "alice", 30990, 100, "for bob", nostr.Tag{"d", "x"}, nostr.Tag{"p", pub("bob")})
	if err := relays[0].Publish(box); err != nil {
		t.Fatal(err)
	}
	f := nostr.Filter{Kinds: []int{30990}}

	lazy := relaypool.New(relaypool.Options{Auth: signer("bob")})
	defer lazy.Close()
	if res := lazy.Fetch(context.Background(), devrelay.URLs(relays), f); !res.Complete || len(res.Events) != 0 {
		t.Fatalf("without AuthFirst the relay answers anonymously and withholds: %d events", len(res.Events))
	}
	eager := relaypool.New(relaypool.Options{Auth: signer("bob"), AuthFirst: true})
	defer eager.Close()
	res := eager.Fetch(context.Background(), devrelay.URLs(relays), f)
	if !res.Complete || len(res.Events) != 1 || res.Events[0].ID != box.ID {
		t.Fatalf("with AuthFirst bob must see his event: %+v, %d events", res.Relays, len(res.Events))
	}
	if n := relays[0].ReqCount(); n != 2 {
		t.Errorf("REQs = %d, want one per fetch (no refused REQ)", n)
	}
}
