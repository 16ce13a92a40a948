package account_test

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
	"github.com/roster-cli/roster/signer"
	"github.com/zalando/go-keyring"
)

// Rule (no signer): a command that needs a signer and has none fails with
// exit 2 and says exactly how to log in.
func TestNoSignerFailsWithExit2AndSaysHowToLogIn(t *testing.T) {
	t.Parallel()
	env := clitest.HomeEnv(t)
	r := clitest.Invocation{Env: env}.Roster(t, "whoami")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "roster login --nsec") || !strings.Contains(r.Err, "ROSTER_SECRET_KEY") {
		t.Fatalf("exit %d stderr %q", r.Code, r.Err)
	}
	r = clitest.Invocation{Env: env}.Roster(t, "whoami", "--json")
	var body struct {
		Error struct {
			Code     string   `json:"code"`
			Commands []string `json:"commands"`
		} `json:"error"`
	}
	clitest.DecodeJSON(t, r, &body)
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
	clitest.SignerTestKeyring(t)
	k := clitest.NewTestKey(t)
	env := clitest.HomeEnv(t)
	r := clitest.Invocation{Env: env, Stdin: k.Nsec + "\n"}.Roster(t, "login", "--nsec", "--json")
	var login account.LoginResult
	clitest.DecodeJSON(t, r, &login)
	if r.Code != 0 || login.Schema != "roster.login/v1" || login.Npub != k.Npub || login.Pubkey != k.Pubkey || login.Backend != "keyring" || clitest.OrEmpty(login.Nsec) != "" {
		t.Fatalf("exit %d login %+v stderr %q", r.Code, login, r.Err)
	}
	if got, err := keyring.Get(signer.KeyringService, k.Npub); err != nil || got != k.Hex {
		t.Fatalf("keyring roster/%s: %v", k.Npub, err)
	}
	acctFile := filepath.Join(env["ROSTER_HOME"], "account.json")
	st, err := os.Stat(acctFile)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("account file %v %v", err, st)
	}

	r = clitest.Invocation{Env: env}.Roster(t, "whoami", "--json")
	var who account.WhoamiResult
	clitest.DecodeJSON(t, r, &who)
	if r.Code != 0 || who != (account.WhoamiResult{Schema: "roster.whoami/v1", Npub: k.Npub, Pubkey: k.Pubkey, Backend: "keyring"}) {
		t.Fatalf("exit %d whoami %+v", r.Code, who)
	}
	r = clitest.Invocation{Env: env}.Roster(t, "whoami")
	if r.Code != 0 || !strings.Contains(r.Out, k.Npub) || !strings.Contains(r.Out, k.Pubkey) || !strings.Contains(r.Out, "keyring") {
		t.Fatalf("whoami text %q", r.Out)
	}

	r = clitest.Invocation{Env: env}.Roster(t, "logout", "--json")
	var out account.LogoutResult
	clitest.DecodeJSON(t, r, &out)
	if r.Code != 0 || !out.LoggedOut || clitest.OrEmpty(out.Npub) != k.Npub || clitest.OrEmpty(out.Backend) != "keyring" {
		t.Fatalf("logout %+v", out)
	}
	if _, err := keyring.Get(signer.KeyringService, k.Npub); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("keyring entry survives logout: %v", err)
	}
	if _, err := os.Stat(acctFile); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("account file survives logout: %v", err)
	}
	if r := (clitest.Invocation{Env: env}).Roster(t, "whoami"); r.Code != cmdutil.ExitUsage {
		t.Fatalf("whoami after logout: exit %d", r.Code)
	}
	if r := (clitest.Invocation{Env: env}).Roster(t, "logout"); r.Code != 0 || !strings.Contains(r.Out, "Not logged in") {
		t.Fatalf("second logout: exit %d %q", r.Code, r.Out)
	}
}

// Rule (secrets never in argv): --nsec is never read from argv. A key typed as an argument or as
// the flag's value is refused, and neither the refusal nor anything else
// repeats it.
func TestLoginNeverTakesTheSecretFromArgvNorEchoesIt(t *testing.T) {
	t.Parallel()
	clitest.SignerTestKeyring(t)
	k := clitest.NewTestKey(t)
	env := clitest.HomeEnv(t)
	for _, args := range [][]string{
		{"login", "--nsec", k.Nsec},
		{"login", "--nsec=" + k.Nsec},
		{"login", "--nsec=" + k.Hex},
		{"login", k.Hex},
		{"--json", "login", "--nsec", k.Nsec},
		{"--json", "login", "--nsec=" + k.Nsec},
	} {
		r := clitest.Invocation{Env: env}.Roster(t, args...)
		if r.Code != cmdutil.ExitUsage {
			t.Fatalf("%d args: exit %d, want 2", len(args), r.Code)
		}
		if leaks := clitest.SecretLeaks(t, k, map[string]string{"stdout": r.Out, "stderr": r.Err}, env["ROSTER_HOME"]); len(leaks) > 0 {
			t.Fatalf("secret echoed in %v", leaks)
		}
		if _, err := os.Stat(filepath.Join(env["ROSTER_HOME"], "account.json")); err == nil {
			t.Fatal("a key from argv was accepted")
		}
	}
}

func TestLoginNeedsExactlyOneMode(t *testing.T) {
	t.Parallel()
	env := clitest.HomeEnv(t)
	for _, args := range [][]string{{"login"}, {"login", "--nsec", "--generate"}, {"login", "--nsec", "--show-secret"}} {
		if r := (clitest.Invocation{Env: env}).Roster(t, args...); r.Code != cmdutil.ExitUsage {
			t.Fatalf("%v: exit %d", args, r.Code)
		}
	}
}

// Rule (login --generate): it shows the npub, and the nsec only on explicit request.
func TestLoginGenerateShowsTheNsecOnlyWithShowSecret(t *testing.T) {
	t.Parallel()
	clitest.SignerTestKeyring(t)
	env := clitest.HomeEnv(t)
	r := clitest.Invocation{Env: env}.Roster(t, "login", "--generate")
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
	if r := (clitest.Invocation{Env: env}).Roster(t, "logout"); r.Code != 0 {
		t.Fatalf("logout: %d", r.Code)
	}

	r = clitest.Invocation{Env: env}.Roster(t, "login", "--generate", "--show-secret", "--json")
	var res account.LoginResult
	clitest.DecodeJSON(t, r, &res)
	if r.Code != 0 || !res.Generated || !strings.HasPrefix(clitest.OrEmpty(res.Nsec), "nsec1") || !strings.Contains(r.Err, "only time") {
		t.Fatalf("exit %d %+v err %q", r.Code, res, r.Err)
	}
	shown, err := signer.ParseSecretKey(clitest.OrEmpty(res.Nsec))
	if err != nil {
		t.Fatal(err)
	}
	if stored, _ := keyring.Get(signer.KeyringService, res.Npub); stored != shown {
		t.Fatal("the nsec shown is not the key stored")
	}
	// Shown once: no later command prints it.
	later := clitest.Invocation{Env: env}.Roster(t, "whoami", "--json")
	if strings.Contains(later.Out+later.Err, clitest.OrEmpty(res.Nsec)) || strings.Contains(later.Out+later.Err, shown) {
		t.Fatal("whoami repeats the generated secret")
	}
	clitest.Invocation{Env: env}.Roster(t, "logout")
}

// Rule (no keyring: NIP-49 file): with no keyring service the key goes to an ncryptsec file in
// ROSTER_HOME (0600), unlocked by a passphrase read without echo (here piped,
// as stdin is not a terminal).
func TestLoginWithoutKeyringServiceStoresAnNcryptsecFile(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	env := clitest.HomeEnv(t)
	r := clitest.Invocation{Env: env, Stdin: k.Nsec + "\nhunter2 hunter2\nhunter2 hunter2\n", Seams: clitest.NoKeyring}.Roster(t, "login", "--nsec")
	if r.Code != 0 || !strings.Contains(r.Out, k.Npub) || !strings.Contains(r.Err, "no usable OS keyring") {
		t.Fatalf("exit %d out %q err %q", r.Code, r.Out, r.Err)
	}
	path := filepath.Join(env["ROSTER_HOME"], signer.KeyFile)
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("ncryptsec file: %v %v", err, st)
	}
	nc, _ := os.ReadFile(path)
	if sk, err := signer.OpenNcryptsec(string(nc), "hunter2 hunter2"); err != nil || sk != k.Hex {
		t.Fatalf("file does not open to the key: %v", err)
	}
	who := clitest.Invocation{Env: env, Seams: clitest.NoKeyring}.Roster(t, "whoami", "--json")
	var res account.WhoamiResult
	clitest.DecodeJSON(t, who, &res)
	if res.Backend != "ncryptsec" || res.Npub != k.Npub {
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
	if ok, _ := evt.CheckSignature(); !ok || evt.PubKey != k.Pubkey {
		t.Fatal("not signed by the account")
	}
	if leaks := clitest.SecretLeaks(t, k, map[string]string{"out": r.Out, "err": r.Err, "who": who.Out}, env["ROSTER_HOME"]); len(leaks) > 0 {
		t.Fatalf("secret in %v", leaks)
	}
	if r := (clitest.Invocation{Env: env, Seams: clitest.NoKeyring}).Roster(t, "logout"); r.Code != 0 {
		t.Fatalf("logout exit %d", r.Code)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("ncryptsec file survives logout: %v", err)
	}
}

func TestLoginRefusesToReplaceAnotherAccountWithExit3(t *testing.T) {
	t.Parallel()
	clitest.SignerTestKeyring(t)
	first, second := clitest.NewTestKey(t), clitest.NewTestKey(t)
	env := clitest.HomeEnv(t)
	if r := (clitest.Invocation{Env: env, Stdin: first.Nsec}).Roster(t, "login", "--nsec"); r.Code != 0 {
		t.Fatalf("first login: %d %q", r.Code, r.Err)
	}
	t.Cleanup(func() { clitest.Invocation{Env: env}.Roster(t, "logout") })
	r := clitest.Invocation{Env: env, Stdin: second.Hex}.Roster(t, "login", "--nsec")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, first.Npub) || !strings.Contains(r.Err, "roster logout") {
		t.Fatalf("exit %d err %q", r.Code, r.Err)
	}
	if _, err := keyring.Get(signer.KeyringService, second.Npub); err == nil {
		t.Fatal("second key stored despite the refusal")
	}
}

// Rule (signer order): ROSTER_SECRET_KEY (nsec or hex) comes first.
func TestWhoamiWithRosterSecretKeyShowsTheEnvBackend(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	for _, secret := range []string{k.Nsec, k.Hex} {
		env := clitest.HomeEnv(t)
		env["ROSTER_SECRET_KEY"] = secret
		r := clitest.Invocation{Env: env}.Roster(t, "whoami", "--json")
		var who account.WhoamiResult
		clitest.DecodeJSON(t, r, &who)
		if r.Code != 0 || who.Backend != "env" || who.Pubkey != k.Pubkey || who.Npub != k.Npub {
			t.Fatalf("exit %d %+v", r.Code, who)
		}
	}
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = "nsec1garbage" + k.Hex[:8]
	r := clitest.Invocation{Env: env}.Roster(t, "whoami")
	if r.Code != cmdutil.ExitUsage || strings.Contains(r.Err, k.Hex[:8]) {
		t.Fatalf("bad ROSTER_SECRET_KEY: exit %d err %q", r.Code, r.Err)
	}
}

// A malformed key on stdin is refused with exit 2 and is not repeated: it may
// be a real key with a typo.
func TestLoginRejectsAMalformedKeyWithoutRepeatingIt(t *testing.T) {
	t.Parallel()
	clitest.SignerTestKeyring(t)
	k := clitest.NewTestKey(t)
	env := clitest.HomeEnv(t)
	// Change the last character (bech32 checksum) to one it is not.
	last := "x"
	if strings.HasSuffix(k.Nsec, last) {
		last = "q"
	}
	typo := k.Nsec[:len(k.Nsec)-1] + last
	for _, args := range [][]string{{"login", "--nsec"}, {"login", "--nsec", "--json"}} {
		r := clitest.Invocation{Env: env, Stdin: typo + "\n"}.Roster(t, args...)
		if r.Code != cmdutil.ExitUsage || strings.Contains(r.Out+r.Err, typo) || strings.Contains(r.Out+r.Err, k.Nsec[10:40]) {
			t.Fatalf("exit %d out %q err %q", r.Code, r.Out, r.Err)
		}
	}
	if r := (clitest.Invocation{Env: env}).Roster(t, "login", "--nsec"); r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "stdin ended") {
		t.Fatalf("empty stdin: exit %d err %q", r.Code, r.Err)
	}
}
