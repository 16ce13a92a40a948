package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/account"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/signer"
	"github.com/zalando/go-keyring"
)

func homeEnv(t *testing.T) map[string]string {
	return map[string]string{"ROSTER_HOME": filepath.Join(t.TempDir(), "home")}
}

// Rule (no signer): a command that needs a signer and has none fails with
// exit 2 and says exactly how to log in.
func TestNoSignerFailsWithExit2AndSaysHowToLogIn(t *testing.T) {
	t.Parallel()
	env := homeEnv(t)
	r := invocation{Env: env}.roster(t, "whoami")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "roster login --nsec") || !strings.Contains(r.Err, "ROSTER_SECRET_KEY") {
		t.Fatalf("exit %d stderr %q", r.Code, r.Err)
	}
	r = invocation{Env: env}.roster(t, "whoami", "--json")
	var body struct {
		Error struct {
			Code     string   `json:"code"`
			Commands []string `json:"commands"`
		} `json:"error"`
	}
	decodeJSON(t, r, &body)
	if r.Code != cmdutil.ExitUsage || body.Error.Code != "no-signer" || len(body.Error.Commands) == 0 || body.Error.Commands[0] != "roster login --nsec" {
		t.Fatalf("exit %d body %+v", r.Code, body)
	}

	// The function every signing command calls gives the same error.
	a := &cmdutil.Factory{Io: &cmdutil.IoStreams{In: strings.NewReader(""), Out: new(strings.Builder), Err: new(strings.Builder),
		Getenv: func(k string) string { return env[k] }}}
	_, err := a.Signer(context.Background())
	var ee *cmdutil.ExitError
	if !errors.As(err, &ee) || ee.Code != cmdutil.ExitUsage || ee.Kind != "no-signer" || !strings.Contains(ee.Error(), "roster login") {
		t.Fatalf("a.signer: %#v", err)
	}
}

// Rule (login --nsec): the key is read from stdin when stdin is not a terminal; the
// account is recorded (npub and backend, no secret); whoami shows npub, hex
// pubkey and backend; logout removes the keyring entry.
func TestLoginNsecFromStdinThenWhoamiThenLogout(t *testing.T) {
	t.Parallel()
	signerTestKeyring(t)
	k := newTestKey(t)
	env := homeEnv(t)
	r := invocation{Env: env, Stdin: k.nsec + "\n"}.roster(t, "login", "--nsec", "--json")
	var login account.LoginResult
	decodeJSON(t, r, &login)
	if r.Code != 0 || login.Schema != "roster.login/v1" || login.Npub != k.npub || login.Pubkey != k.pubkey || login.Backend != "keyring" || orEmpty(login.Nsec) != "" {
		t.Fatalf("exit %d login %+v stderr %q", r.Code, login, r.Err)
	}
	if got, err := keyring.Get(signer.KeyringService, k.npub); err != nil || got != k.hex {
		t.Fatalf("keyring roster/%s: %v", k.npub, err)
	}
	acctFile := filepath.Join(env["ROSTER_HOME"], "account.json")
	st, err := os.Stat(acctFile)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("account file %v %v", err, st)
	}

	r = invocation{Env: env}.roster(t, "whoami", "--json")
	var who account.WhoamiResult
	decodeJSON(t, r, &who)
	if r.Code != 0 || who != (account.WhoamiResult{Schema: "roster.whoami/v1", Npub: k.npub, Pubkey: k.pubkey, Backend: "keyring"}) {
		t.Fatalf("exit %d whoami %+v", r.Code, who)
	}
	r = invocation{Env: env}.roster(t, "whoami")
	if r.Code != 0 || !strings.Contains(r.Out, k.npub) || !strings.Contains(r.Out, k.pubkey) || !strings.Contains(r.Out, "keyring") {
		t.Fatalf("whoami text %q", r.Out)
	}

	r = invocation{Env: env}.roster(t, "logout", "--json")
	var out account.LogoutResult
	decodeJSON(t, r, &out)
	if r.Code != 0 || !out.LoggedOut || orEmpty(out.Npub) != k.npub || orEmpty(out.Backend) != "keyring" {
		t.Fatalf("logout %+v", out)
	}
	if _, err := keyring.Get(signer.KeyringService, k.npub); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("keyring entry survives logout: %v", err)
	}
	if _, err := os.Stat(acctFile); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("account file survives logout: %v", err)
	}
	if r := (invocation{Env: env}).roster(t, "whoami"); r.Code != cmdutil.ExitUsage {
		t.Fatalf("whoami after logout: exit %d", r.Code)
	}
	if r := (invocation{Env: env}).roster(t, "logout"); r.Code != 0 || !strings.Contains(r.Out, "Not logged in") {
		t.Fatalf("second logout: exit %d %q", r.Code, r.Out)
	}
}

// Rule (secrets never in argv): --nsec is never read from argv. A key typed as an argument or as
// the flag's value is refused, and neither the refusal nor anything else
// repeats it.
func TestLoginNeverTakesTheSecretFromArgvNorEchoesIt(t *testing.T) {
	t.Parallel()
	signerTestKeyring(t)
	k := newTestKey(t)
	env := homeEnv(t)
	for _, args := range [][]string{
		{"login", "--nsec", k.nsec},
		{"login", "--nsec=" + k.nsec},
		{"login", "--nsec=" + k.hex},
		{"login", k.hex},
		{"--json", "login", "--nsec", k.nsec},
		{"--json", "login", "--nsec=" + k.nsec},
	} {
		r := invocation{Env: env}.roster(t, args...)
		if r.Code != cmdutil.ExitUsage {
			t.Fatalf("%d args: exit %d, want 2", len(args), r.Code)
		}
		if leaks := secretLeaks(t, k, map[string]string{"stdout": r.Out, "stderr": r.Err}, env["ROSTER_HOME"]); len(leaks) > 0 {
			t.Fatalf("secret echoed in %v", leaks)
		}
		if _, err := os.Stat(filepath.Join(env["ROSTER_HOME"], "account.json")); err == nil {
			t.Fatal("a key from argv was accepted")
		}
	}
}

func TestLoginNeedsExactlyOneMode(t *testing.T) {
	t.Parallel()
	env := homeEnv(t)
	for _, args := range [][]string{{"login"}, {"login", "--nsec", "--generate"}, {"login", "--nsec", "--show-secret"}} {
		if r := (invocation{Env: env}).roster(t, args...); r.Code != cmdutil.ExitUsage {
			t.Fatalf("%v: exit %d", args, r.Code)
		}
	}
}

// Rule (login --generate): it shows the npub, and the nsec only on explicit request.
func TestLoginGenerateShowsTheNsecOnlyWithShowSecret(t *testing.T) {
	t.Parallel()
	signerTestKeyring(t)
	env := homeEnv(t)
	r := invocation{Env: env}.roster(t, "login", "--generate")
	if r.Code != 0 || !strings.Contains(r.Out, "npub1") || strings.Contains(r.Out+r.Err, "nsec1") {
		t.Fatalf("exit %d out %q err %q", r.Code, r.Out, r.Err)
	}
	acct, ok, err := signer.LoadAccount(env["ROSTER_HOME"])
	if err != nil || !ok || !strings.Contains(r.Out, acct.Npub) {
		t.Fatalf("account %+v %v %v", acct, ok, err)
	}
	sk, err := keyring.Get(signer.KeyringService, acct.Npub)
	if err != nil {
		t.Fatal(err)
	}
	if pk, _ := nostr.GetPublicKey(sk); pk != acct.Pubkey {
		t.Fatal("keyring holds a key that is not the account's")
	}
	if r := (invocation{Env: env}).roster(t, "logout"); r.Code != 0 {
		t.Fatalf("logout: %d", r.Code)
	}

	r = invocation{Env: env}.roster(t, "login", "--generate", "--show-secret", "--json")
	var res account.LoginResult
	decodeJSON(t, r, &res)
	if r.Code != 0 || !res.Generated || !strings.HasPrefix(orEmpty(res.Nsec), "nsec1") || !strings.Contains(r.Err, "only time") {
		t.Fatalf("exit %d %+v err %q", r.Code, res, r.Err)
	}
	shown, err := signer.ParseSecretKey(orEmpty(res.Nsec))
	if err != nil {
		t.Fatal(err)
	}
	if stored, _ := keyring.Get(signer.KeyringService, res.Npub); stored != shown {
		t.Fatal("the nsec shown is not the key stored")
	}
	// Shown once: no later command prints it.
	later := invocation{Env: env}.roster(t, "whoami", "--json")
	if strings.Contains(later.Out+later.Err, orEmpty(res.Nsec)) || strings.Contains(later.Out+later.Err, shown) {
		t.Fatal("whoami repeats the generated secret")
	}
	invocation{Env: env}.roster(t, "logout")
}

// Rule (no keyring: NIP-49 file): with no keyring service the key goes to an ncryptsec file in
// ROSTER_HOME (0600), unlocked by a passphrase read without echo (here piped,
// as stdin is not a terminal).
func TestLoginWithoutKeyringServiceStoresAnNcryptsecFile(t *testing.T) {
	t.Parallel()
	k := newTestKey(t)
	env := homeEnv(t)
	r := invocation{Env: env, Stdin: k.nsec + "\nhunter2 hunter2\nhunter2 hunter2\n", Seams: noKeyring}.roster(t, "login", "--nsec")
	if r.Code != 0 || !strings.Contains(r.Out, k.npub) || !strings.Contains(r.Err, "no usable OS keyring") {
		t.Fatalf("exit %d out %q err %q", r.Code, r.Out, r.Err)
	}
	path := filepath.Join(env["ROSTER_HOME"], signer.KeyFile)
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("ncryptsec file: %v %v", err, st)
	}
	nc, _ := os.ReadFile(path)
	if sk, err := signer.OpenNcryptsec(string(nc), "hunter2 hunter2"); err != nil || sk != k.hex {
		t.Fatalf("file does not open to the key: %v", err)
	}
	who := invocation{Env: env, Seams: noKeyring}.roster(t, "whoami", "--json")
	var res account.WhoamiResult
	decodeJSON(t, who, &res)
	if res.Backend != "ncryptsec" || res.Npub != k.npub {
		t.Fatalf("whoami %+v", res)
	}

	// A signing command asks for the passphrase and signs as the account.
	a := &cmdutil.Factory{Io: &cmdutil.IoStreams{In: strings.NewReader("hunter2 hunter2\n"), Out: new(strings.Builder), Err: new(strings.Builder),
		Getenv: func(key string) string { return env[key] }}}
	s, err := a.Signer(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	evt := nostr.Event{Kind: 1, CreatedAt: 1, Content: "x"}
	if err := s.SignEvent(context.Background(), &evt); err != nil {
		t.Fatal(err)
	}
	if ok, _ := evt.CheckSignature(); !ok || evt.PubKey != k.pubkey {
		t.Fatal("not signed by the account")
	}
	if leaks := secretLeaks(t, k, map[string]string{"out": r.Out, "err": r.Err, "who": who.Out}, env["ROSTER_HOME"]); len(leaks) > 0 {
		t.Fatalf("secret in %v", leaks)
	}
	if r := (invocation{Env: env, Seams: noKeyring}).roster(t, "logout"); r.Code != 0 {
		t.Fatalf("logout exit %d", r.Code)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("ncryptsec file survives logout: %v", err)
	}
}

func TestLoginRefusesToReplaceAnotherAccountWithExit3(t *testing.T) {
	t.Parallel()
	signerTestKeyring(t)
	first, second := newTestKey(t), newTestKey(t)
	env := homeEnv(t)
	if r := (invocation{Env: env, Stdin: first.nsec}).roster(t, "login", "--nsec"); r.Code != 0 {
		t.Fatalf("first login: %d %q", r.Code, r.Err)
	}
	t.Cleanup(func() { invocation{Env: env}.roster(t, "logout") })
	r := invocation{Env: env, Stdin: second.hex}.roster(t, "login", "--nsec")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, first.npub) || !strings.Contains(r.Err, "roster logout") {
		t.Fatalf("exit %d err %q", r.Code, r.Err)
	}
	if _, err := keyring.Get(signer.KeyringService, second.npub); err == nil {
		t.Fatal("second key stored despite the refusal")
	}
}

// Rule (signer order): ROSTER_SECRET_KEY (nsec or hex) comes first.
func TestWhoamiWithRosterSecretKeyShowsTheEnvBackend(t *testing.T) {
	t.Parallel()
	k := newTestKey(t)
	for _, secret := range []string{k.nsec, k.hex} {
		env := homeEnv(t)
		env["ROSTER_SECRET_KEY"] = secret
		r := invocation{Env: env}.roster(t, "whoami", "--json")
		var who account.WhoamiResult
		decodeJSON(t, r, &who)
		if r.Code != 0 || who.Backend != "env" || who.Pubkey != k.pubkey || who.Npub != k.npub {
			t.Fatalf("exit %d %+v", r.Code, who)
		}
	}
	env := homeEnv(t)
	env["ROSTER_SECRET_KEY"] = "nsec1garbage" + k.hex[:8]
	r := invocation{Env: env}.roster(t, "whoami")
	if r.Code != cmdutil.ExitUsage || strings.Contains(r.Err, k.hex[:8]) {
		t.Fatalf("bad ROSTER_SECRET_KEY: exit %d err %q", r.Code, r.Err)
	}
}

// A malformed key on stdin is refused with exit 2 and is not repeated: it may
// be a real key with a typo.
func TestLoginRejectsAMalformedKeyWithoutRepeatingIt(t *testing.T) {
	t.Parallel()
	signerTestKeyring(t)
	k := newTestKey(t)
	env := homeEnv(t)
	// Change the last character (bech32 checksum) to one it is not.
	last := "x"
	if strings.HasSuffix(k.nsec, last) {
		last = "q"
	}
	typo := k.nsec[:len(k.nsec)-1] + last
	for _, args := range [][]string{{"login", "--nsec"}, {"login", "--nsec", "--json"}} {
		r := invocation{Env: env, Stdin: typo + "\n"}.roster(t, args...)
		if r.Code != cmdutil.ExitUsage || strings.Contains(r.Out+r.Err, typo) || strings.Contains(r.Out+r.Err, k.nsec[10:40]) {
			t.Fatalf("exit %d out %q err %q", r.Code, r.Out, r.Err)
		}
	}
	if r := (invocation{Env: env}).roster(t, "login", "--nsec"); r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "stdin ended") {
		t.Fatalf("empty stdin: exit %d err %q", r.Code, r.Err)
	}
}
