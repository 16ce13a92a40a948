package account_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/account"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// jsonObject decodes a command's --json stdout as one object.
func jsonObject(t *testing.T, r clitest.Result) map[string]any {
	t.Helper()
	var m map[string]any
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &m) != nil {
		t.Fatalf("exit %d, not a JSON object: %s %s", r.Code, r.Out, r.Err)
	}
	return m
}

// assertKeys checks the exact key set of obj, and which of them are null.
func assertKeys(t *testing.T, what string, obj map[string]any, keys []string, nulls ...string) {
	t.Helper()
	var got []string
	for k, v := range obj {
		got = append(got, k)
		if (v == nil) != slices.Contains(nulls, k) {
			t.Errorf("%s: %q is %v, want null=%v", what, k, v, slices.Contains(nulls, k))
		}
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(keys))
	if !slices.Equal(got, want) {
		t.Errorf("%s: keys %v, want %v", what, got, want)
	}
}

var (
	whoamiKeys = []string{"schema", "npub", "pubkey", "backend", "bunker"}
	logoutKeys = []string{"schema", "logged_out", "npub", "backend", "bunker_client_pubkey", "env_key_still_set"}
	loginKeys  = []string{"schema", "npub", "pubkey", "backend", "bunker", "generated", "nsec", "env_key_overrides"}
)

// Rule (docs/signer.md): roster.whoami/v1, roster.logout/v1 and
// roster.login/v1 always print every documented field, null when it does
// not apply, so their shape never depends on the backend.
func TestAccountJSONPrintsEveryDocumentedFieldNullWhenItDoesNotApply(t *testing.T) {
	t.Parallel()
	clitest.SignerTestKeyring(t)
	k := clitest.NewTestKey(t)
	env := clitest.HomeEnv(t)

	// Nobody logged in: logout has no npub, backend or bunker client.
	assertKeys(t, "logout, not logged in", jsonObject(t, clitest.Invocation{Env: env}.Roster(t, "logout", "--json")),
		logoutKeys, "npub", "backend", "bunker_client_pubkey")

	// A keyring key: no bunker anywhere, no nsec shown.
	assertKeys(t, "login --nsec", jsonObject(t, clitest.Invocation{Env: env, Stdin: k.Nsec + "\n"}.Roster(t, "login", "--nsec", "--json")),
		loginKeys, "bunker", "nsec")
	assertKeys(t, "whoami, keyring", jsonObject(t, clitest.Invocation{Env: env}.Roster(t, "whoami", "--json")), whoamiKeys, "bunker")
	assertKeys(t, "logout, keyring", jsonObject(t, clitest.Invocation{Env: env}.Roster(t, "logout", "--json")),
		logoutKeys, "bunker_client_pubkey")

	// A bunker login: every field applies but the nsec.
	user := clitest.NewTestKey(t)
	bunkerURL, _ := clitest.StartTestBunker(t, devrelay.StartN(t, 1, devrelay.Options{})[0].URL(), user.Hex, "one-time-s3cret")
	login := jsonObject(t, clitest.Invocation{Env: env}.Roster(t, "login", "--bunker", bunkerURL, "--json"))
	assertKeys(t, "login --bunker", login, loginKeys, "nsec")
	who := jsonObject(t, clitest.Invocation{Env: env}.Roster(t, "whoami", "--json"))
	assertKeys(t, "whoami, bunker", who, whoamiKeys)
	if b, _ := who["bunker"].(string); !strings.HasPrefix(b, "bunker://") || strings.Contains(b, "s3cret") {
		t.Errorf("whoami bunker %q", b)
	}
	assertKeys(t, "logout, bunker", jsonObject(t, clitest.Invocation{Env: env}.Roster(t, "logout", "--json")), logoutKeys)
}

// Rule (docs/architecture.md pitfalls: encoding/json escapes <>&): a bunker URL
// with two relays keeps its "&" in --json, as writeJSON prints elsewhere.
func TestAccountJSONDoesNotEscapeTheBunkerURL(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	err := cmdutil.WriteJSON(&cmdutil.Factory{Io: &cmdutil.IoStreams{Out: &b}}, account.WhoamiResult{Schema: "roster.whoami/v1", Bunker: account.NullIfEmpty("bunker://x?relay=a&relay=b")})
	if err != nil || !strings.Contains(b.String(), `"bunker://x?relay=a&relay=b"`) {
		t.Fatalf("%s %v", b.String(), err)
	}
}
