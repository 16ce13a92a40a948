package cmdutil

import (
	"errors"
	"strings"

	"github.com/roster-cli/roster/signer"
	"github.com/zalando/go-keyring"
)

// plainKeyring wraps the keyring every command uses so that its failures
// read in plain words. go-keyring reports a machine without a Secret
// Service in D-Bus's terms (`exec: "dbus-launch": executable file not
// found in $PATH`, "The name org.freedesktop.secrets was not provided by
// any .service files"); the user needs to hear that no keyring service is
// running and what to do. "No such entry" passes through unchanged: the
// signer package branches on it.
type plainKeyring struct{ k signer.Keyring }

func (p plainKeyring) Get(service, account string) (string, error) {
	s, err := p.k.Get(service, account)
	return s, KeyringWords(err)
}

func (p plainKeyring) Set(service, account, secret string) error {
	return KeyringWords(p.k.Set(service, account, secret))
}

func (p plainKeyring) Delete(service, account string) error {
	return KeyringWords(p.k.Delete(service, account))
}

// noKeyringServiceError is a keyring call that found no keyring service.
type noKeyringServiceError struct {
	why string // what is missing, in plain words
	err error  // the library's error
}

func (e *noKeyringServiceError) Error() string {
	// Short: login prints it each time it falls back to the ncryptsec
	// file, and says that fallback itself.
	return "no keyring service is running (" + e.why + "; start GNOME Keyring, KWallet or KeePassXC, or use dbus-run-session)"
}

func (e *noKeyringServiceError) Unwrap() error { return e.err }

// KeyringWords is err in plain words when it says no keyring service runs.
func KeyringWords(err error) error {
	if err == nil || errors.Is(err, keyring.ErrNotFound) {
		return err
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "dbus-launch") || strings.Contains(msg, "session bus") ||
		strings.Contains(msg, "DBUS_SESSION_BUS_ADDRESS") || strings.Contains(msg, "dbus: authentication failed"):
		return &noKeyringServiceError{why: "no D-Bus session to reach one through", err: err}
	case strings.Contains(msg, "org.freedesktop.secrets") || strings.Contains(msg, "ServiceUnknown"):
		return &noKeyringServiceError{why: "the D-Bus session has no Secret Service", err: err}
	}
	return err
}
