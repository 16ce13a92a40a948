//go:build secretservice

package clitest

import (
	"errors"
	"os"
	"testing"

	"github.com/zalando/go-keyring"
)

// SignerTestKeyring checks that the real Secret Service of the CI keyring
// session answers; the login tests then run against it. The secretservice tag
// is set only by .ci/keyring-session, so a missing service is a failure.
func SignerTestKeyring(t *testing.T) {
	t.Helper()
	if os.Getenv("ROSTER_TEST_SECRET_SERVICE") != "1" {
		t.Fatal("built with -tags=secretservice but ROSTER_TEST_SECRET_SERVICE!=1: run under dbus-run-session -- bash .ci/keyring-session")
	}
	if _, err := keyring.Get("roster", "roster-test-probe"); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("no usable Secret Service in this session: %v", err)
	}
}
