package relaypool_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/relaypool"
)

// Rule (NIP-42): answer an AUTH challenge when a signer is available.
func TestFetchAnswersAuthChallengeWhenSignerIsSet(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{RequireAuth: true})
	ann := announcement(t, "alice", "repo", 100)
	if err := relays[0].Publish(ann); err != nil {
		t.Fatal(err)
	}
	p := relaypool.New(relaypool.Options{Auth: signer("carol")})
	defer p.Close()
	res := p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{30617}})
	if !res.Complete || len(res.Events) != 1 {
		t.Fatalf("reports %+v events %d, want ok with the announcement", res.Relays, len(res.Events))
	}
	// The first REQ was refused with auth-required, the second answered.
	if n := relays[0].ReqCount(); n != 2 {
		t.Errorf("REQs = %d, want 2 (refused, then re-sent after AUTH)", n)
	}
	// Publishing on the same, now authenticated, connection needs no new AUTH.
	evt := signed(t, "carol", 1, 100, "hello")
	reps := p.Publish(context.Background(), devrelay.URLs(relays), evt)
	if !reps[0].OK {
		t.Fatalf("publish %+v", reps[0])
	}
}

// Rule (NIP-42): without a signer, report the relay as closed: auth-required.
func TestFetchReportsAuthRequiredAsClosedWithoutSigner(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	locked := devrelay.StartN(t, 1, devrelay.Options{RequireAuth: true})
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	res := p.Fetch(context.Background(), append(devrelay.URLs(relays), locked[0].URL()), nostr.Filter{Kinds: []int{30617}})
	if res.Complete {
		t.Fatal("Complete = true although one relay refused the request")
	}
	rep := res.Relays[2]
	if rep.Status != relaypool.StatusClosed || !strings.HasPrefix(rep.Reason, "auth-required") {
		t.Fatalf("report %+v, want closed with an auth-required reason", rep)
	}
}

func TestPublishAnswersAuthWhenRelayDemandsIt(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{RequireAuth: true})
	evt := signed(t, "alice", 1, 100, "hi")

	anon := relaypool.New(relaypool.Options{})
	defer anon.Close()
	if rep := anon.Publish(context.Background(), devrelay.URLs(relays), evt)[0]; rep.OK || !strings.HasPrefix(rep.Message, "auth-required") {
		t.Fatalf("without a signer: %+v, want refused auth-required", rep)
	}
	p := relaypool.New(relaypool.Options{Auth: signer("alice")})
	defer p.Close()
	if rep := p.Publish(context.Background(), devrelay.URLs(relays), evt)[0]; !rep.OK {
		t.Fatalf("with a signer: %+v", rep)
	}
	if got := relays[0].Stored(nostr.Filter{IDs: []string{evt.ID}}); len(got) != 1 {
		t.Fatalf("stored %d, want the event", len(got))
	}
}

func TestFetchReportsFailedAuthenticationAsClosed(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{RequireAuth: true})
	refuse := func(context.Context, *nostr.Event) error { return errors.New("the user declined to sign") }
	p := relaypool.New(relaypool.Options{Auth: refuse})
	defer p.Close()
	rep := p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{1}}).Relays[0]
	if rep.Status != relaypool.StatusClosed || !strings.HasPrefix(rep.Reason, "auth-required") || !strings.Contains(rep.Reason, "declined") {
		t.Fatalf("report %+v, want closed auth-required naming the signing failure", rep)
	}
}

// Rule (never claim nothing was published when an EVENT was sent): a
// report says whether the EVENT reached the relay's connection, OK or not;
// a relay never reached, or a publish already cancelled, was not sent it.
func TestPublishReportsWhetherTheEventWasSent(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	relays[1].SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(*nostr.Event) string { return "blocked: test" }})
	down := devrelay.StartN(t, 1, devrelay.Options{})
	url := down[0].URL()
	down[0].Stop() // its port stays bound, refusing (devrelay.Relay.Stop)
	evt := signed(t, "alice", 1, 100, "hi")
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	reps := p.Publish(context.Background(), append(devrelay.URLs(relays), url), evt)
	if !reps[0].Sent || !reps[0].OK || !reps[1].Sent || reps[1].OK || reps[2].Sent {
		t.Fatalf("sent/ok %+v, want accepted+sent, refused+sent, not sent", reps)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if rep := p.Publish(ctx, devrelay.URLs(relays)[:1], signed(t, "alice", 1, 101, "late"))[0]; rep.Sent {
		t.Fatalf("a cancelled publish reports %+v as sent", rep)
	}
}
