//go:build !secretservice

package main

import (
	"testing"

	"github.com/zalando/go-keyring"
)

// Outside the CI keyring session (.ci/keyring-session builds with
// -tags=secretservice) every command in this test binary sees go-keyring's
// in-memory mock, so no test touches, or autolaunches, a real D-Bus.
func init() { keyring.MockInit() }

// signerTestKeyring prepares the keyring the login tests use: here a fresh mock.
func signerTestKeyring(t *testing.T) {
	t.Helper()
	keyring.MockInit()
}
