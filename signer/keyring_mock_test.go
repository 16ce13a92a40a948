//go:build !secretservice

package signer

import (
	"testing"

	"github.com/zalando/go-keyring"
)

// Outside the CI keyring session (.ci/keyring-session builds with
// -tags=secretservice) every test in this package runs against go-keyring's
// in-memory mock, so no test ever touches, or autolaunches, a real D-Bus.
func init() { keyring.MockInit() }

// testKeyring returns the keyring the keyring tests run against: here the mock.
func testKeyring(t *testing.T) Keyring {
	t.Helper()
	keyring.MockInit()
	return OSKeyring{}
}
