package main

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/dev"
	"github.com/roster-cli/roster/relaypool"
)

// `roster dev relay --seed demo` runs the relay for people trying
// roster without the internet; scripts read its URL and naddr from stdout.
func TestDevRelaySeedDemoJSONServesTheDemoRepositoryUntilStopped(t *testing.T) {
	t.Parallel()
	run := clitest.StartDevRelayCmd(t, "dev", "relay", "--addr", "127.0.0.1:0", "--seed", "demo", "--json")
	line := run.WaitOutput(t, "}")
	var started struct {
		URL, Self, Naddr, Coordinate string
		WorkspaceOwner               string `json:"workspace_owner"`
		ProjectNaddr                 string `json:"project_naddr"`
		ProjectCoordinate            string `json:"project_coordinate"`
		GroupID                      string `json:"group_id"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(line)), &started); err != nil {
		t.Fatalf("stdout is not one JSON line: %q (%v)", line, err)
	}
	if !strings.HasPrefix(started.URL, "ws://127.0.0.1:") || len(started.Self) != 64 || !strings.HasPrefix(started.Naddr, "naddr1") {
		t.Fatalf("started %+v", started)
	}
	if prefix, _, err := nip19.Decode(started.Naddr); err != nil || prefix != "naddr" {
		t.Fatalf("naddr %q: %v", started.Naddr, err)
	}
	coord, err := graph.ParseATag(started.Coordinate)
	if err != nil {
		t.Fatal(err)
	}
	pool := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer pool.Close()
	res := pool.Discover(context.Background(), []string{started.URL}, devrelay.DemoIdentifier, coord)
	if !res.Complete || len(res.Events) != 5 {
		t.Fatalf("discovered %d events (%+v), want the 4 demo announcements and the state", len(res.Events), res.Relays)
	}
	info, err := pool.RelayInfo(context.Background(), started.URL)
	if err != nil || info.Self != started.Self {
		t.Fatalf("NIP-11 self %v (%v), want %s", info, err, started.Self)
	}
	// The banner names the seeded workspace owner, project and group, and
	// each reads back from the running relay.
	if !strings.HasPrefix(started.WorkspaceOwner, "npub1") || !strings.HasPrefix(started.ProjectCoordinate, "30621:") || started.GroupID != devrelay.DemoHomeChannel {
		t.Fatalf("banner %+v", started)
	}
	env := map[string]string{"ROSTER_HOME": t.TempDir(), "ROSTER_SECRET_KEY": devrelay.DemoKey("alice")}
	for _, args := range [][]string{
		{"workspace", "show", "--owner", started.WorkspaceOwner},
		{"project", "show", started.ProjectNaddr},
		{"group", "show", started.GroupID},
	} {
		if r := (clitest.Invocation{Env: env}).Roster(t, append(args, "--relay", started.URL, "--timeout", "5s")...); r.Code != cmdutil.ExitOK {
			t.Errorf("roster %v against the banner: exit %d %s", args, r.Code, r.Err)
		}
	}

	run.Stop()
	select {
	case <-run.Done:
		if run.Result != nil {
			t.Fatalf("stopping returned %v", run.Result)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("roster dev relay did not stop")
	}
	if c, err := net.DialTimeout("tcp", strings.TrimPrefix(started.URL, "ws://"), time.Second); err == nil {
		c.Close()
		// Tests run in parallel: another test's relay may have been given
		// the freed port. Only this relay's own NIP-11 self is a failure.
		after := relaypool.New(relaypool.Options{Timeout: 2 * time.Second})
		defer after.Close()
		if info, err := after.RelayInfo(context.Background(), started.URL); err == nil && info.Self == started.Self {
			t.Fatal("the relay still accepts connections after stopping")
		}
	}
}

// The demo is readable by `roster repo` end to end (what `make demo` runs).
func TestDevRelayDemoIsReadableByRosterRepo(t *testing.T) {
	t.Parallel()
	run := clitest.StartDevRelayCmd(t, "dev", "relay", "--addr", "127.0.0.1:0", "--seed", "demo")
	out := run.WaitOutput(t, "try: roster group show")
	for _, want := range []string{"try: roster repo --repo naddr1", "roster workspace show --relay ws://", "try: roster project show naddr1", "try: roster group show " + devrelay.DemoHomeChannel} {
		if !strings.Contains(out, want) {
			t.Errorf("the human banner has no %q line:\n%s", want, out)
		}
	}
	var url, naddr string
	for _, f := range strings.Fields(out) {
		if strings.HasPrefix(f, "ws://") && url == "" {
			url = f
		}
		if strings.HasPrefix(f, "naddr1") && naddr == "" {
			naddr = f
		}
	}
	if url == "" || naddr == "" || !strings.HasPrefix(out, "relay listening on "+url) {
		t.Fatalf("human output must start with the URL and carry the naddr:\n%s", out)
	}
	env := map[string]string{"ROSTER_HOME": t.TempDir(), "HOME": t.TempDir()}
	r := clitest.Invocation{Env: env}.Roster(t, "repo", "--repo", naddr, "--relay", url, "--json", "--timeout", "5s")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("roster repo exit %d\nstdout %s\nstderr %s", r.Code, r.Out, r.Err)
	}
	var repo map[string]any
	if err := json.Unmarshal([]byte(r.Out), &repo); err != nil {
		t.Fatal(err)
	}
	alicePub, _ := nostr.GetPublicKey(devrelay.DemoKey("alice"))
	alice := graph.Npub(alicePub)
	if repo["lead_maintainer"] != alice || repo["lead_source"] != "explicit" || repo["complete"] != true {
		t.Fatalf("lead %v (%v), complete %v; want alice explicit, complete", repo["lead_maintainer"], repo["lead_source"], repo["complete"])
	}
}

func TestDevRelayRequireAuthRefusesAnonymousReads(t *testing.T) {
	t.Parallel()
	run := clitest.StartDevRelayCmd(t, "dev", "relay", "--addr", "127.0.0.1:0", "--require-auth", "--json")
	var started struct{ URL string }
	if err := json.Unmarshal([]byte(strings.TrimSpace(run.WaitOutput(t, "}"))), &started); err != nil {
		t.Fatal(err)
	}
	pool := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer pool.Close()
	res := pool.Discover(context.Background(), []string{started.URL}, "anything")
	if res.Relays[0].Status != relaypool.StatusClosed || !strings.HasPrefix(res.Relays[0].Reason, "auth-required") {
		t.Fatalf("report %+v, want closed auth-required", res.Relays[0])
	}
}

func TestDevRelayUnknownSeedIsUsageError(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: map[string]string{}}.Roster(t, "dev", "relay", "--addr", "127.0.0.1:0", "--seed", "nope")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "--seed demo") {
		t.Fatalf("exit %d stderr %q", r.Code, r.Err)
	}
}

func TestDevRelayBusyPortNamesTheWayOut(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	r := clitest.Invocation{Env: map[string]string{}}.Roster(t, "dev", "relay", "--addr", ln.Addr().String())
	if r.Code != cmdutil.ExitFailure || !strings.Contains(r.Err, "--addr 127.0.0.1:0") {
		t.Fatalf("exit %d stderr %q", r.Code, r.Err)
	}
}

// `roster dev relay` runs the reference authorities, so workspace, project
// and group commands can be tried against it: a client-submitted kind 30623 is
// refused, and a project identity is materialized into relay-signed state.
func TestDevRelayRunsTheWorkspaceProjectAndGroupAuthorities(t *testing.T) {
	t.Parallel()
	run := clitest.StartDevRelayCmd(t, "dev", "relay", "--addr", "127.0.0.1:0", "--json")
	line := run.WaitOutput(t, "}")
	var started struct{ URL, Self string }
	if err := json.Unmarshal([]byte(strings.TrimSpace(line)), &started); err != nil {
		t.Fatalf("stdout %q: %v", line, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	relay, err := nostr.RelayConnect(ctx, started.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer relay.Close()
	sk := nostr.GeneratePrivateKey()
	owner, _ := nostr.GetPublicKey(sk)

	forged := nostr.Event{Kind: 30623, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"d", owner}}, Content: `{"version":1}`}
	if err := forged.Sign(sk); err != nil {
		t.Fatal(err)
	}
	if err := relay.Publish(ctx, forged); err == nil {
		t.Fatal("the dev relay accepted a client-submitted kind 30623")
	}

	identity := nostr.Event{Kind: 30621, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"d", "demo-project"}, {"name", "Demo"}}}
	if err := identity.Sign(sk); err != nil {
		t.Fatal(err)
	}
	if err := relay.Publish(ctx, identity); err != nil {
		t.Fatalf("project identity refused: %v", err)
	}
	coord := "30621:" + owner + ":demo-project"
	pool := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer pool.Close()
	res := pool.Fetch(ctx, []string{started.URL}, nostr.Filter{Kinds: []int{30623}, Tags: nostr.TagMap{"a": {coord}}})
	if !res.Complete {
		t.Fatalf("the relay did not answer: %+v", res.Relays)
	}
	if len(res.Events) != 1 || res.Events[0].PubKey != started.Self {
		t.Fatalf("project state for %s: %d events, want one signed by the relay's self %s", coord, len(res.Events), started.Self)
	}
}

func TestDevRelayAuthoritiesClaimEachKindOnce(t *testing.T) {
	t.Parallel()
	seen := map[int]bool{}
	for _, a := range dev.DevRelayAuthorities() {
		for _, k := range a.Kinds() {
			if seen[k] {
				t.Fatalf("kind %d is claimed twice", k)
			}
			seen[k] = true
		}
	}
	for _, k := range []int{9050, 9051, 9052, 9053, 9054, 30623, 30621, 47010, 9000, 9001, 9002, 9007, 9008} {
		if !seen[k] {
			t.Errorf("no authority claims kind %d", k)
		}
	}
}
