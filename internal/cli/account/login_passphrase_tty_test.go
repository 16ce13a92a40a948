//go:build linux

package account_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/root"
	"github.com/roster-cli/roster/signer"
)

// Rule (no keyring: NIP-49 file): a NIP-49 ncryptsec file in ROSTER_HOME
// (0600) when no keyring service exists, unlocked by a passphrase read from
// the terminal without echo. On a real pseudo-terminal: login asks for the key, then the
// new passphrase twice, each with echo off; a later signing command asks for
// the passphrase with echo off and signs as the account; the terminal never
// shows the key or the passphrase.
func TestNcryptsecPassphraseIsReadFromTheTerminalWithoutEcho(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	env := clitest.HomeEnv(t)
	const pass = "correct horse battery"
	master, slave := clitest.OpenPty(t)
	var out, errb clitest.SyncBuffer
	s := &cmdutil.IoStreams{In: slave, Out: &out, Err: &errb, InTTY: true,
		Getenv: func(key string) string { return env[key] }, Now: time.Now}
	done := make(chan int, 1)
	go func() {
		done <- root.RunContext(context.Background(), clitest.Tree(), []string{"login", "--nsec"}, s, clitest.NoKeyring)
	}()
	clitest.TypeAtPrompt(t, master, slave, &errb, "secret key: ", 1, k.Nsec)
	clitest.TypeAtPrompt(t, master, slave, &errb, "New passphrase for the roster key", 1, pass)
	clitest.TypeAtPrompt(t, master, slave, &errb, "Repeat the passphrase", 1, pass)
	select {
	case code := <-done:
		if code != 0 || !strings.Contains(out.String(), k.Npub) {
			t.Fatalf("login exit %d out %q err %q", code, out.String(), errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("login did not finish")
	}
	nc, err := os.ReadFile(filepath.Join(env["ROSTER_HOME"], signer.KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	if sk, err := signer.OpenNcryptsec(string(nc), pass); err != nil || sk != k.Hex {
		t.Fatalf("the ncryptsec file does not open with the typed passphrase: %v", err)
	}

	// A signing command unlocks the file with a passphrase typed at the terminal.
	a := &cmdutil.Factory{Io: &cmdutil.IoStreams{In: slave, Out: &out, Err: &errb, InTTY: true,
		Getenv: func(key string) string { return env[key] }, Now: time.Now}}
	sg, err := a.Signer(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	evt := nostr.Event{Kind: 1, CreatedAt: 1, Content: "x"}
	signed := make(chan error, 1)
	go func() { signed <- sg.SignEvent(context.Background(), &evt) }()
	clitest.TypeAtPrompt(t, master, slave, &errb, "Passphrase for the roster key", 1, pass)
	select {
	case err := <-signed:
		if ok, _ := evt.CheckSignature(); err != nil || !ok || evt.PubKey != k.Pubkey {
			t.Fatalf("not signed by the account: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("signing did not finish")
	}

	shown := clitest.TerminalShows(t, master, slave)
	for _, secret := range []string{k.Nsec[:20], k.Hex[:20], pass} {
		if strings.Contains(shown, secret) || strings.Contains(out.String(), secret) || strings.Contains(errb.String(), secret) {
			t.Fatalf("%q was shown: terminal %q stdout %q stderr %q", secret, shown, out.String(), errb.String())
		}
	}
}
