package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"golang.org/x/term"

	"github.com/roster-cli/roster/signer"
)

// osKeyring is the keyring every command uses. Tests swap it (never in
// parallel) to simulate a machine without a keyring service.
var osKeyring signer.Keyring = signer.OSKeyring{}

// loginCommands are what a user without a signer can run next.
var loginCommands = []string{
	"roster login --nsec",
	"roster login --bunker 'bunker://<remote-signer-pubkey>?relay=wss://...'",
	"roster login --generate",
	"export ROSTER_SECRET_KEY=nsec1...   # CI and scripts",
}

// signer returns the active signer: ROSTER_SECRET_KEY, else the logged-in
// account's bunker, keyring entry or ncryptsec file. With none it fails with
// exit 2 and says exactly how to log in.
func (a *app) signer(ctx context.Context) (signer.Signer, error) {
	env, err := a.signerEnv(newSecretReader(a))
	if err != nil {
		return nil, err
	}
	s, err := signer.Active(ctx, env)
	if err != nil {
		return nil, signerError(err)
	}
	return s, nil
}

// noSignerError is the exit-2 "no-signer" refusal of every signing command.
func noSignerError() *exitError {
	return &exitError{
		Code: exitUsage, Kind: "no-signer",
		Err: errors.New("no signer is configured, so roster has no key to sign with; " +
			"log in with `roster login --nsec` (type or pipe your nsec; never put it on the command line), " +
			"`roster login --bunker <bunker://...>` (NIP-46 remote signer) or `roster login --generate` (a new key), " +
			"or set ROSTER_SECRET_KEY for CI"),
		Commands: loginCommands,
	}
}

// signerError maps signer failures to exit codes. Signer errors never carry
// secrets, so they can be shown as they are.
func signerError(err error) error {
	var already *signer.AlreadyLoggedInError
	switch {
	case errors.Is(err, signer.ErrNoSigner):
		return noSignerError()
	case errors.As(err, &already):
		return &exitError{Code: exitRefused, Kind: "already-logged-in", Err: err,
			Commands: []string{"roster logout"},
			Details:  map[string]any{"npub": already.Account.Npub, "backend": already.Account.Backend}}
	case errors.Is(err, signer.ErrBadSecretKey):
		return &exitError{Code: exitUsage, Kind: "bad-secret-key", Err: err}
	case errors.Is(err, signer.ErrWrongPassphrase):
		return &exitError{Code: exitUsage, Kind: "wrong-passphrase", Err: err}
	}
	return &exitError{Code: exitFailure, Kind: "signer", Err: err,
		Commands: []string{"roster whoami", "roster logout", "roster login --nsec"}}
}

// signerEnv describes this invocation's world to the signer package.
func (a *app) signerEnv(r *secretReader) (signer.Env, error) {
	home, err := a.home()
	if err != nil {
		return signer.Env{}, usageErr("%v", err)
	}
	return signer.Env{
		Home:       home,
		SecretKey:  a.io.Getenv("ROSTER_SECRET_KEY"),
		Keyring:    osKeyring,
		Passphrase: r.read,
		OnAuthURL: func(u string) {
			fmt.Fprintf(a.io.Err, "roster: the bunker asks you to approve this request at %s\n", u)
		},
		Notice: func(m string) { fmt.Fprintf(a.io.Err, "roster: %s\n", m) },
	}, nil
}

// secretReader reads secrets (nsec, passphrases): without echo from a
// terminal, else one line at a time from stdin, so scripts and tests can pipe
// them. One reader serves a whole command so piped lines are not lost.
type secretReader struct {
	a  *app
	br *bufio.Reader
}

func newSecretReader(a *app) *secretReader {
	return &secretReader{a: a, br: bufio.NewReader(a.io.In)}
}

func (r *secretReader) read(prompt string) (string, error) {
	if f, ok := r.a.io.In.(*os.File); ok && r.a.io.InTTY {
		fmt.Fprintf(r.a.io.Err, "%s: ", prompt)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(r.a.io.Err)
		if err != nil {
			return "", fmt.Errorf("read from the terminal: %w", err)
		}
		return string(b), nil
	}
	line, err := r.br.ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && line != "") {
		if errors.Is(err, io.EOF) {
			return "", fmt.Errorf("%s: stdin ended before it was given (pipe it, or run from a terminal)", strings.ToLower(prompt[:1])+prompt[1:])
		}
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// secretLike matches what may be a secret key in a message: an nsec, an
// ncryptsec or 64 hex characters.
var secretLike = regexp.MustCompile(`(?i)n(crypt)?sec1[0-9a-z]+|\b[0-9a-f]{64}\b`)

// redactSecrets hides anything secret-shaped in a message about user input.
func redactSecrets(s string) string { return secretLike.ReplaceAllString(s, "[redacted]") }
