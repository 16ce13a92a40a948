package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// failingKeyring fails every call with err, as go-keyring does on a
// machine without a keyring service.
type failingKeyring struct{ err error }

func (k failingKeyring) Get(string, string) (string, error) { return "", k.err }
func (k failingKeyring) Set(string, string, string) error   { return k.err }
func (k failingKeyring) Delete(string, string) error        { return k.err }

// Without a keyring service, login says so in plain words and what to do,
// not with D-Bus's text (`exec: "dbus-launch": executable file not found`),
// and still stores the key in the passphrase-protected file.
func TestNoKeyringServiceIsNamedPlainly(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		`exec: "dbus-launch": executable file not found in $PATH`,
		"The name org.freedesktop.secrets was not provided by any .service files",
	} {
		k := clitest.NewTestKey(t)
		env := clitest.HomeEnv(t)
		r := clitest.Invocation{Env: env, Stdin: k.Nsec + "\nhunter2 hunter2\nhunter2 hunter2\n",
			Seams: cmdutil.Seams{Keyring: failingKeyring{errors.New(raw)}}}.Roster(t, "login", "--nsec")
		if r.Code != cmdutil.ExitOK || !strings.Contains(r.Err, "no keyring service is running") || !strings.Contains(r.Err, "GNOME Keyring") ||
			strings.Contains(r.Err, "dbus-launch") || strings.Contains(r.Err, ".service files") || longestLine(strings.ReplaceAll(r.Err, env["ROSTER_HOME"], "~")) > 200 {
			t.Errorf("%s: exit %d, stderr %q", raw, r.Code, r.Err)
		}
	}
	// Any other keyring failure keeps its own words.
	if err := cmdutil.KeyringWords(errors.New("permission denied")); err.Error() != "permission denied" {
		t.Errorf("other failure reworded: %v", err)
	}
}

func longestLine(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		n = max(n, len(l))
	}
	return n
}
