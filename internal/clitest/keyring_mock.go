//go:build !secretservice

package clitest

import (
	"testing"

	"github.com/zalando/go-keyring"
)

// Outside the CI keyring session (.ci/keyring-session builds with
// -tags=secretservice) every command in a test binary that imports the
// harness sees go-keyring's in-memory mock, so no test touches, or
// autolaunches, a real D-Bus.
func init() { keyring.MockInit() }

// SignerTestKeyring prepares the keyring the login tests use: here the
// process's one mock, set up by init. It is not reset: the login tests run
// in parallel, each as its own account, and a reset would drop another
// test's secrets mid-run (a bunker's client key between login and use).
func SignerTestKeyring(t *testing.T) {
	t.Helper()
}
