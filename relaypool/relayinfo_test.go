package relaypool_test

import (
	"context"
	"testing"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/relaypool"
)

// Rule (relay identity): the NIP-11 fetch includes the relay's `self` pubkey.
func TestRelayInfoReadsSelf(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{SecretKey: key("relay"), RequireAuth: true})
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	info, err := p.RelayInfo(context.Background(), relays[0].URL())
	if err != nil {
		t.Fatal(err)
	}
	if info.Self != pub("relay") || info.Self != relays[0].Self() {
		t.Fatalf("self = %q, want %q", info.Self, pub("relay"))
	}
	if info.URL != relays[0].URL() || info.Limitation == nil || !info.Limitation.AuthRequired {
		t.Errorf("info %+v", info)
	}
	found42 := false
	for _, n := range info.SupportedNIPs {
		found42 = found42 || n == 42
	}
	if !found42 {
		t.Errorf("supported NIPs %v lack 42", info.SupportedNIPs)
	}
}

func TestRelayInfoFromStoppedRelayIsAnError(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	relays[0].Stop()
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	if _, err := p.RelayInfo(context.Background(), relays[0].URL()); err == nil {
		t.Fatal("want an error from a stopped relay")
	}
}
