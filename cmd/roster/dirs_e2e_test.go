package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/account"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/writedeny"
	"github.com/roster-cli/roster/signer"
)

// xdgEnv is a user's environment with no ROSTER_HOME: HOME only, so roster
// uses the XDG defaults under it.
func xdgEnv(t *testing.T) (map[string]string, string) {
	home := t.TempDir()
	return map[string]string{"HOME": home}, home
}

// loginNcryptsec stores k as an ncryptsec file (no keyring) under env.
func loginNcryptsec(t *testing.T, env map[string]string, k clitest.TestKey) {
	t.Helper()
	r := clitest.Invocation{Env: env, Stdin: k.Nsec + "\npass phrase\npass phrase\n", Seams: clitest.NoKeyring}.Roster(t, "login", "--nsec")
	if r.Code != 0 {
		t.Fatalf("login exit %d err %q", r.Code, r.Err)
	}
}

// signsAs checks that the invocation's signer, unlocked with the
// passphrase, signs as k: the key is readable where roster looks.
func signsAs(t *testing.T, env map[string]string, k clitest.TestKey) {
	t.Helper()
	a := &cmdutil.Factory{Io: &cmdutil.IoStreams{In: strings.NewReader("pass phrase\n"), Out: new(strings.Builder), Err: new(strings.Builder),
		Getenv: func(key string) string { return env[key] }}, Seams: clitest.NoKeyring}
	s, err := a.Signer(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	evt := nostr.Event{Kind: 1, CreatedAt: 1, Content: "x"}
	if err := s.SignEvent(context.Background(), &evt); err != nil {
		t.Fatal(err)
	}
	if ok, _ := evt.CheckSignature(); !ok || evt.PubKey != k.Pubkey {
		t.Fatal("not signed by the account")
	}
}

// Rule: without --home or ROSTER_HOME, the login's files go to
// $XDG_DATA_HOME/roster (~/.local/share/roster), config.yaml is read from
// $XDG_CONFIG_HOME/roster (~/.config/roster) and the cache is
// $XDG_CACHE_HOME/roster (~/.cache/roster): deleting the cache directory
// keeps the key.
func TestKeysConfigAndCacheLiveInTheirXDGDirectories(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	env, home := xdgEnv(t)
	loginNcryptsec(t, env, k)
	data := filepath.Join(home, ".local", "share", "roster")
	for _, f := range []string{signer.KeyFile, signer.AccountFile} {
		if _, err := os.Stat(filepath.Join(data, f)); err != nil {
			t.Fatalf("%s not in the data directory: %v", f, err)
		}
	}
	if err := os.RemoveAll(filepath.Join(home, ".cache")); err != nil {
		t.Fatal(err)
	}
	signsAs(t, env, k)

	r := clitest.Invocation{Env: env}.Roster(t, "cache", "info", "--json")
	if r.Code != 0 || !strings.Contains(r.Out, filepath.Join(home, ".cache", "roster", "cache.db")) {
		t.Fatalf("cache info exit %d out %s", r.Code, r.Out)
	}

	// config.yaml is read from the config directory: a bad one is refused
	// naming that path.
	conf := filepath.Join(home, ".config", "roster")
	if err := os.MkdirAll(conf, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(conf, "config.yaml"), []byte("relays: [ftp://x]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = clitest.Invocation{Env: env}.Roster(t, "repo", "--offline")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "config.yaml") {
		t.Fatalf("a bad config.yaml in the config directory: exit %d err %q", r.Code, r.Err)
	}

	// XDG variables move each directory; ROSTER_HOME puts all in one.
	env2 := map[string]string{"HOME": home, "XDG_DATA_HOME": filepath.Join(home, "d"), "XDG_CONFIG_HOME": filepath.Join(home, "c")}
	loginNcryptsec(t, env2, k)
	if _, err := os.Stat(filepath.Join(home, "d", "roster", signer.KeyFile)); err != nil {
		t.Fatalf("XDG_DATA_HOME ignored: %v", err)
	}
	one := clitest.HomeEnv(t)
	loginNcryptsec(t, one, k)
	if _, err := os.Stat(filepath.Join(one["ROSTER_HOME"], signer.KeyFile)); err != nil {
		t.Fatalf("ROSTER_HOME ignored: %v", err)
	}
}

// oldHome lays out what an earlier roster left in its single default home,
// ~/.cache/roster: a login (made through ROSTER_HOME there) and a config.
func oldHome(t *testing.T, home string, k clitest.TestKey) string {
	t.Helper()
	old := filepath.Join(home, ".cache", "roster")
	loginNcryptsec(t, map[string]string{"ROSTER_HOME": old}, k)
	if err := os.WriteFile(filepath.Join(old, "config.yaml"), []byte("relays: [wss://relay.example]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(old, "cache.db.keep"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	return old
}

// Rule: a key, account and config found in the old single home
// (~/.cache/roster) are moved once to the data and config directories, with
// a notice on stderr; the next command moves nothing and says nothing.
func TestAnOldHomesKeyAndConfigAreMovedOnceWithANotice(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	env, home := xdgEnv(t)
	old := oldHome(t, home, k)

	r := clitest.Invocation{Env: env, Seams: clitest.NoKeyring}.Roster(t, "whoami", "--json")
	var who account.WhoamiResult
	clitest.DecodeJSON(t, r, &who)
	if r.Code != 0 || who.Npub != k.Npub {
		t.Fatalf("whoami exit %d out %s err %q", r.Code, r.Out, r.Err)
	}
	data, conf := filepath.Join(home, ".local", "share", "roster"), filepath.Join(home, ".config", "roster")
	if !strings.Contains(r.Err, "moved your login files (key.ncryptsec, account.json) from "+old+" to "+data) ||
		!strings.Contains(r.Err, "moved your settings files (config.yaml) from "+old+" to "+conf) {
		t.Fatalf("no move notice: %q", r.Err)
	}
	for _, p := range []string{filepath.Join(data, signer.KeyFile), filepath.Join(data, signer.AccountFile), filepath.Join(conf, "config.yaml")} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("not moved: %v", err)
		}
	}
	for _, f := range []string{signer.KeyFile, signer.AccountFile, "config.yaml"} {
		if _, err := os.Stat(filepath.Join(old, f)); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s still in the old home: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(old, "cache.db.keep")); err != nil {
		t.Fatalf("the move touched a file that is not the login's: %v", err)
	}
	signsAs(t, env, k)
	r = clitest.Invocation{Env: env, Seams: clitest.NoKeyring}.Roster(t, "whoami")
	if r.Code != 0 || r.Err != "" {
		t.Fatalf("second run: exit %d err %q", r.Code, r.Err)
	}
}

// Rule: a move that fails part-way (here account.json cannot be placed: a
// dangling symbolic link stands at its name, which a move never replaces)
// moves nothing, says so,
// and the key stays readable and usable where it was; the next run after
// the obstacle is gone finishes the move.
func TestAMoveThatFailsPartWayKeepsTheKeyReadable(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	env, home := xdgEnv(t)
	old := oldHome(t, home, k)
	data := filepath.Join(home, ".local", "share", "roster")
	blocker := filepath.Join(data, signer.AccountFile)
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, "nowhere"), blocker); err != nil {
		t.Fatal(err)
	}

	r := clitest.Invocation{Env: env, Seams: clitest.NoKeyring}.Roster(t, "whoami", "--json")
	var who account.WhoamiResult
	clitest.DecodeJSON(t, r, &who)
	if r.Code != 0 || who.Npub != k.Npub || who.Backend != "ncryptsec" {
		t.Fatalf("whoami exit %d out %s err %q", r.Code, r.Out, r.Err)
	}
	if !strings.Contains(r.Err, "could not move account.json from "+old+" to "+data) || !strings.Contains(r.Err, "still using "+old) {
		t.Fatalf("no failure notice: %q", r.Err)
	}
	if _, err := os.Stat(filepath.Join(old, signer.KeyFile)); err != nil {
		t.Fatalf("the key left the old home: %v", err)
	}
	if _, err := os.Stat(filepath.Join(data, signer.KeyFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("half a move left a key copy in the data directory: %v", err)
	}
	signsAs(t, env, k)

	if err := os.RemoveAll(blocker); err != nil {
		t.Fatal(err)
	}
	r = clitest.Invocation{Env: env, Seams: clitest.NoKeyring}.Roster(t, "whoami")
	if r.Code != 0 || !strings.Contains(r.Err, "moved your login files") {
		t.Fatalf("retry: exit %d err %q", r.Code, r.Err)
	}
	signsAs(t, env, k)
}

// Rule: a login into a data directory roster may not write fails naming
// the permission problem and --home (exit 1, not-permitted), not with
// unrelated login commands. There is no seam for the operating system
// refusing a write: where this machine denies none (root without chattr
// +i) the test fails naming what is missing (writedeny.MustDeny).
func TestALoginIntoAnUnwritableHomeNamesThePermissionAndHome(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	env := clitest.HomeEnv(t)
	if err := os.MkdirAll(env["ROSTER_HOME"], 0o700); err != nil {
		t.Fatal(err)
	}
	writedeny.MustDeny(t, env["ROSTER_HOME"])
	r := clitest.Invocation{Env: env, Stdin: k.Nsec + "\npass phrase\npass phrase\n", Seams: clitest.NoKeyring}.Roster(t, "login", "--nsec", "--json")
	if r.Code != cmdutil.ExitFailure || !strings.Contains(r.Out, `"code": "not-permitted"`) || !strings.Contains(r.Out, "--home") || strings.Contains(r.Out, "roster login") {
		t.Fatalf("exit %d out %s err %q", r.Code, r.Out, r.Err)
	}
}
