package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/account"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/signer"
	"github.com/zalando/go-keyring"
)

// Rule (NIP-46 bunker signer): an in-process bunker (go-nostr's signer side)
// over a devrelay signs a repo init announcement end to end.
func TestBunkerLoginSignsARepoInitAnnouncementEndToEnd(t *testing.T) {
	t.Parallel()
	clitest.SignerTestKeyring(t)
	user := clitest.NewTestKey(t)
	bunkerRelay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	repoRelays := devrelay.StartN(t, 1, devrelay.Options{})
	bunkerURL, signed := clitest.StartTestBunker(t, bunkerRelay.URL(), user.Hex, "one-time-s3cret")
	env := clitest.HomeEnv(t)

	r := clitest.Invocation{Env: env}.Roster(t, "login", "--bunker", bunkerURL, "--json")
	var login account.LoginResult
	clitest.DecodeJSON(t, r, &login)
	if r.Code != 0 || login.Backend != "bunker" || login.Pubkey != user.Pubkey || strings.Contains(clitest.OrEmpty(login.Bunker), "one-time-s3cret") || !strings.HasPrefix(clitest.OrEmpty(login.Bunker), "bunker://") {
		t.Fatalf("exit %d login %+v err %q", r.Code, login, r.Err)
	}
	who := clitest.Invocation{Env: env}.Roster(t, "whoami", "--json")
	var w account.WhoamiResult
	clitest.DecodeJSON(t, who, &w)
	if w.Backend != "bunker" || w.Npub != user.Npub {
		t.Fatalf("whoami %+v", w)
	}

	dir, root := clitest.InitTestCheckout(t, "widget")
	r = clitest.Invocation{Env: env, Dir: dir}.Roster(t, append([]string{"repo", "init", "--json"}, clitest.InitRelayFlags(repoRelays)...)...)
	if r.Code != 0 {
		t.Fatalf("repo init via bunker: exit %d out %s err %s", r.Code, r.Out, r.Err)
	}
	var res report.RepoInit
	clitest.DecodeJSON(t, r, &res)
	stored := clitest.InitStoredAnnouncements(repoRelays[0], user.Pubkey)
	if len(stored) != 1 || stored[0].ID != res.Event.ID || res.Backend != "bunker" || stored[0].Tags.Find("r")[1] != root {
		t.Fatalf("stored %v result %+v", stored, res)
	}
	if ok, _ := stored[0].CheckSignature(); !ok {
		t.Fatal("stored announcement has a bad signature")
	}
	if signed() != 1 {
		t.Fatalf("bunker answered %d sign_event requests, want 1", signed())
	}

	// The bunker's NIP-44 paths: a peer's ciphertext decrypts to its
	// plaintext, and the bunker's ciphertext is readable by the peer.
	a := &cmdutil.Factory{Io: &cmdutil.IoStreams{In: strings.NewReader(""), Out: new(strings.Builder), Err: new(strings.Builder),
		Getenv: func(k string) string { return env[k] }}}
	s, err := a.Signer(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	peer, _ := signer.NewKeySigner(nostr.GeneratePrivateKey(), "env")
	peerPK, _ := peer.PublicKey(context.Background())
	ct, _ := peer.Encrypt(context.Background(), "workspace key", user.Pubkey)
	if pt, err := s.Decrypt(context.Background(), ct, peerPK); err != nil || pt != "workspace key" {
		t.Fatalf("bunker Decrypt: %q %v", pt, err)
	}
	back, err := s.Encrypt(context.Background(), "reply", peerPK)
	if err != nil {
		t.Fatal(err)
	}
	if pt, err := peer.Decrypt(context.Background(), back, user.Pubkey); err != nil || pt != "reply" {
		t.Fatalf("peer reads %q %v", pt, err)
	}

	if leaks := clitest.SecretLeaks(t, user, map[string]string{"login": r.Out + r.Err, "who": who.Out}, env["ROSTER_HOME"]); len(leaks) > 0 {
		t.Fatalf("user secret in %v", leaks)
	}
	// Nor is the bunker's one-time connection secret kept anywhere.
	acct, _ := os.ReadFile(filepath.Join(env["ROSTER_HOME"], signer.AccountFile))
	if len(acct) == 0 || strings.Contains(string(acct), "one-time-s3cret") || strings.Contains(who.Out, "one-time-s3cret") {
		t.Fatalf("account file %q keeps the bunker secret (or is missing)", acct)
	}
	// Every bunker request closes its relay connections: only the test
	// bunker's own connection stays open.
	deadline := time.Now().Add(5 * time.Second)
	for bunkerRelay.Connections() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("bunker relay still has %d connections; roster leaks its bunker connections", bunkerRelay.Connections())
		}
		time.Sleep(10 * time.Millisecond)
	}

	out := clitest.Invocation{Env: env}.Roster(t, "logout", "--json")
	var lo account.LogoutResult
	clitest.DecodeJSON(t, out, &lo)
	if !lo.LoggedOut || clitest.OrEmpty(lo.Backend) != "bunker" || clitest.OrEmpty(lo.BunkerClientPubkey) == "" {
		t.Fatalf("logout %+v", lo)
	}
}

// A bunker that was not given the connection secret refuses, and roster
// records no account.
func TestBunkerLoginWithAWrongSecretIsRefused(t *testing.T) {
	t.Parallel()
	clitest.SignerTestKeyring(t)
	user := clitest.NewTestKey(t)
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	bunkerURL, _ := clitest.StartTestBunker(t, relay.URL(), user.Hex, "right")
	env := clitest.HomeEnv(t)
	wrong := strings.Replace(bunkerURL, "secret=right", "secret=wrong", 1)
	r := clitest.Invocation{Env: env}.Roster(t, "login", "--bunker", wrong)
	if r.Code == 0 || !strings.Contains(r.Err, "unauthorized") || strings.Contains(r.Err, "secret=wrong") {
		t.Fatalf("exit %d err %q", r.Code, r.Err)
	}
	if w := (clitest.Invocation{Env: env}).Roster(t, "whoami"); w.Code != cmdutil.ExitUsage {
		t.Fatalf("whoami after refused login: exit %d", w.Code)
	}
}

// Rule (logout removes the secret from wherever it is stored), also
// after switching the same account from the keyring to a bunker.
func TestSwitchingToABunkerThenLogoutLeavesNoSecretInTheKeyring(t *testing.T) {
	t.Parallel()
	clitest.SignerTestKeyring(t)
	user := clitest.NewTestKey(t)
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	bunkerURL, _ := clitest.StartTestBunker(t, relay.URL(), user.Hex, "s")
	env := clitest.HomeEnv(t)
	if r := (clitest.Invocation{Env: env, Stdin: user.Nsec}).Roster(t, "login", "--nsec"); r.Code != 0 {
		t.Fatalf("login --nsec: %d %s", r.Code, r.Err)
	}
	r := clitest.Invocation{Env: env}.Roster(t, "login", "--bunker", bunkerURL, "--json")
	var login account.LoginResult
	clitest.DecodeJSON(t, r, &login)
	if r.Code != 0 || login.Backend != "bunker" {
		t.Fatalf("login --bunker: %d %s %s", r.Code, r.Out, r.Err)
	}
	if _, err := keyring.Get(signer.KeyringService, user.Npub); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("the nsec stays in the keyring after switching to the bunker: %v", err)
	}
	if _, err := keyring.Get(signer.KeyringService, user.Npub+"#bunker-client"); err != nil {
		t.Fatalf("bunker client key not in the keyring: %v", err)
	}
	if r := (clitest.Invocation{Env: env}).Roster(t, "logout"); r.Code != 0 {
		t.Fatalf("logout: %d", r.Code)
	}
	if _, err := keyring.Get(signer.KeyringService, user.Npub+"#bunker-client"); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("bunker client key survives logout: %v", err)
	}
}
