package repo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// nip05RelaysServer answers /.well-known/nostr.json for name, listing pk
// with relays, and a client that reaches it for any host.
func nip05RelaysServer(t *testing.T, name, pk string, relays []string) *http.Client {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"names": map[string]string{name: pk}, "relays": map[string][]string{pk: relays}})
	}))
	t.Cleanup(srv.Close)
	c := srv.Client()
	tr := c.Transport.(*http.Transport).Clone()
	addr := srv.Listener.Addr().String()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	c.Transport = tr
	return c
}

// Rule (every relay source shares the 32-relay bound): a repository named
// by a NIP-05 address whose document lists 2,001 relays for the key (none
// of them listening) is read from the configured relay and at most
// discovery.MaxWriteRelays relays in all, within the documented rounds,
// not 2,001 dials.
func TestANIP05DocumentsRelaysShareTheRelayBound(t *testing.T) {
	t.Parallel()
	rl := devrelay.StartN(t, 1, devrelay.Options{})[0]
	clitest.Publish(t, rl.URL(), clitest.LeadShaped(t, "proj")...)
	var dead []string
	for i := range 2001 {
		dead = append(dead, fmt.Sprintf("ws://127.0.0.1:1/r%d", i))
	}
	client := nip05RelaysServer(t, "alice", clitest.Alice.Pk, dead)
	env := clitest.TestEnv(t)
	env["ROSTER_RELAYS"] = rl.URL()
	inv := clitest.Invocation{Env: env, Seams: cmdutil.Seams{Http: client}}
	start := time.Now()
	r := inv.Roster(t, "repo", "--repo", "nostr://alice@example.com/proj", "--json", "--timeout", "2s")
	took := time.Since(start)
	var out struct {
		Relays []struct {
			URL    string `json:"url"`
			Status string `json:"status"`
		} `json:"relays"`
	}
	if err := json.Unmarshal([]byte(r.Out), &out); err != nil {
		t.Fatalf("exit %d: %v\n%s%s", r.Code, err, r.Out, r.Err)
	}
	if len(out.Relays) == 0 || len(out.Relays) > discovery.MaxWriteRelays || out.Relays[0].URL != rl.URL() || out.Relays[0].Status != "ok" {
		t.Fatalf("exit %d, %d relays asked (want the configured one first and at most %d): %+v", r.Code, len(out.Relays), discovery.MaxWriteRelays, out.Relays)
	}
	if took > 5*time.Second {
		t.Fatalf("the read took %v (2 rounds of --timeout 2s at most, and slack)", took)
	}
}
