package announce

import (
	"context"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
)

// meanwhileSigner runs meanwhile (another machine publishes) before it
// signs, as a signer that takes its time lets happen.
type meanwhileSigner struct {
	signer.Signer
	meanwhile func(being *nostr.Event)
}

func (s meanwhileSigner) SignEvent(ctx context.Context, e *nostr.Event) error {
	s.meanwhile(e)
	return s.Signer.SignEvent(ctx, e)
}

// Rule (init never silently replaces an announcement, that is repo edit's
// job): the author's announcement of the identifier is read again right
// before the new one is sent. Here the author's other machine announced
// the identifier, a second older than this one, while it was signed; sent,
// this one would replace it unseen. Init stops instead: refused
// (concurrent-change), nothing sent, the other announcement kept.
func TestAnAnnouncementPublishedWhileInitSignedStopsInit(t *testing.T) {
	co := committedCheckout(t)
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	secret := nostr.GeneratePrivateKey()
	key, err := signer.NewKeySigner(secret, "test")
	if err != nil {
		t.Fatal(err)
	}
	var theirs *nostr.Event
	slow := meanwhileSigner{Signer: key, meanwhile: func(being *nostr.Event) {
		theirs = &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: being.CreatedAt - 1,
			Tags: nostr.Tags{{"d", "widgets"}, {"name", "widgets"}, {"description", "from the laptop"}}}
		if err := theirs.Sign(secret); err != nil {
			t.Fatal(err)
		}
		if err := relay.Publish(theirs); err != nil {
			t.Fatal(err)
		}
	}}
	pool := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	t.Cleanup(pool.Close)
	p := Pipeline{Checkout: co, Signer: func(context.Context) (signer.Signer, error) { return slow, nil },
		Relays: []string{relay.URL()}, Pool: pool, Now: time.Now}
	_, err = p.Run(context.Background(), Request{Identifier: "widgets", Clone: []string{"https://git.example/widgets.git"}})
	f := failure.Of(err)
	if f == nil || f.Code != KindConcurrentChange || f.Class != failure.Refused || len(f.Next) == 0 {
		t.Fatalf("got %v, want a refused concurrent-change naming the rerun", err)
	}
	got := relay.Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}})
	if len(got) != 1 || got[0].ID != theirs.ID {
		t.Fatalf("the relay keeps %d announcements, want only the one published meanwhile", len(got))
	}
}
