package account_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/signer"
)

// Rule (a key exported by another client can be imported): `login
// --ncryptsec` reads a NIP-49 ncryptsec and its passphrase, and stores the
// key as --nsec would; a wrong passphrase is exit 2 wrong-passphrase and
// stores nothing; the ncryptsec is never echoed.
func TestLoginImportsAnNcryptsec(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	nc, err := signer.SealNcryptsec(k.Hex, "correct horse", 16, false)
	if err != nil {
		t.Fatal(err)
	}
	env := clitest.HomeEnv(t)
	r := clitest.Invocation{Env: env, Stdin: nc + "\nwrong\n"}.Roster(t, "login", "--ncryptsec", "--json")
	if e := clitest.ErrorBody(t, r); r.Code != cmdutil.ExitUsage || e.Code != "wrong-passphrase" {
		t.Fatalf("wrong passphrase: exit %d %+v", r.Code, e)
	}
	if w := (clitest.Invocation{Env: env}).Roster(t, "whoami"); w.Code != cmdutil.ExitUsage {
		t.Fatalf("a refused import left an account: exit %d %s", w.Code, w.Out)
	}
	r = clitest.Invocation{Env: env, Stdin: nc + "\ncorrect horse\n"}.Roster(t, "login", "--ncryptsec", "--json")
	var res struct {
		Npub string `json:"npub"`
	}
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &res) != nil || res.Npub != k.Npub {
		t.Fatalf("import: exit %d out %s err %s", r.Code, r.Out, r.Err)
	}
	if strings.Contains(r.Out+r.Err, nc) || strings.Contains(r.Out+r.Err, k.Nsec) {
		t.Fatal("a secret was echoed")
	}
	if w := (clitest.Invocation{Env: env}).Roster(t, "whoami", "--json"); w.Code != cmdutil.ExitOK || !strings.Contains(w.Out, k.Npub) {
		t.Fatalf("whoami after the import: exit %d %s", w.Code, w.Out)
	}
}
