package relaypool_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/relaypool"
)

// Rule (roster --debug): the request log has one line per request and per
// answer, naming the relay, the filters in a few words and the answer, and
// for a publish the kind, the short id and the OK; it never carries an
// event's content, its signature or a key.
func TestTheRequestLogNamesRequestsAndAnswersButNoContentOrSignatures(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	relays[1].Stop()
	var mu sync.Mutex
	var lines []string
	p := relaypool.New(relaypool.Options{Debug: func(l string) { mu.Lock(); lines = append(lines, l); mu.Unlock() }})
	defer p.Close()
	const secretish = "content-that-must-not-be-logged"
	evt := signed(t, "alice", 1, 100, secretish)
	p.Publish(context.Background(), devrelay.URLs(relays), evt)
	p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{1}, Authors: []string{evt.PubKey}, Limit: 5})

	mu.Lock()
	log := strings.Join(lines, "\n")
	mu.Unlock()
	for _, want := range []string{
		"EVENT " + relays[0].URL() + " kind 1 id " + evt.ID[:8],
		"OK " + relays[0].URL() + " id " + evt.ID[:8] + "…: accepted true",
		"EVENT " + relays[1].URL() + " kind 1 id " + evt.ID[:8] + "… not sent",
		"REQ " + relays[0].URL() + " {kinds 1 1 author(s) " + evt.PubKey[:8] + "… limit 5}",
		"answer " + relays[0].URL() + ": ok, 1 event(s), 0 dropped in ",
		"answer " + relays[1].URL() + ": failed",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	for _, never := range []string{secretish, evt.Sig, key("alice"), evt.ID} {
		if strings.Contains(log, never) {
			t.Errorf("the log carries %q:\n%s", never, log)
		}
	}
}
