package cmdutil

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"golang.org/x/term"
)

// keyring is the keyring every command uses: the OS keyring, unless a test
// gave the invocation another (a machine without a keyring service), with
// its failures in plain words (keyring_words.go).
func (a *Factory) keyring() signer.Keyring {
	if a.Seams.Keyring != nil {
		return plainKeyring{a.Seams.Keyring}
	}
	return plainKeyring{signer.OSKeyring{}}
}

// loginCommands are what a user without a signer can run next.
var loginCommands = []suggest.Command{
	suggest.Roster("login", "--nsec"),
	suggest.Roster("login", "--bunker", "bunker://<remote-signer-pubkey>?relay=wss://..."),
	suggest.Roster("login", "--generate"),
	suggest.Shell("export ROSTER_SECRET_KEY=nsec1...").Because("CI and scripts"),
}

// Signer returns the active signer: ROSTER_SECRET_KEY, else the logged-in
// account's bunker, keyring entry or ncryptsec file. With none it fails with
// exit 2 and says exactly how to log in.
//
// It is opened once per invocation, however many times (and from however
// many goroutines, e.g. one NIP-42 challenge per relay) it is asked for, so
// an ncryptsec passphrase is asked for at most once.
func (a *Factory) Signer(ctx context.Context) (signer.Signer, error) {
	a.signerOnce.Do(func() { a.signerOnce.s, a.signerOnce.err = a.openSigner(ctx) })
	return a.signerOnce.s, a.signerOnce.err
}

// signerOnce memoizes one invocation's signer (a field of app).
type signerOnce struct {
	sync.Once
	s   signer.Signer
	err error
}

func (a *Factory) openSigner(ctx context.Context) (signer.Signer, error) {
	env, err := a.SignerEnv(NewSecretReader(a))
	if err != nil {
		return nil, err
	}
	s, err := signer.Active(ctx, env)
	if err != nil {
		return nil, SignerError(err)
	}
	return s, nil
}

// noSignerError is the exit-2 "no-signer" refusal of every signing command.
func noSignerError() *ExitError {
	return &ExitError{
		Code: ExitUsage, Kind: "no-signer",
		Err: errors.New("no signer is configured, so roster has no key to sign with; " +
			"log in with `roster login --nsec` (type or pipe your nsec; never put it on the command line), " +
			"`roster login --bunker <bunker://...>` (NIP-46 remote signer) or `roster login --generate` (a new key), " +
			"or set ROSTER_SECRET_KEY for CI"),
		Commands: loginCommands,
	}
}

// SignerError maps signer failures to exit codes. Signer errors never carry
// secrets, so they can be shown as they are.
func SignerError(err error) error { return signerExitError(err).OneLine() }

// signerExitError is signerError before its message is marked one line: a
// signer's messages are one sentence, and a bunker's may quote what the
// bunker or its relay replied.
func signerExitError(err error) *ExitError {
	var already *signer.AlreadyLoggedInError
	switch {
	case errors.Is(err, signer.ErrNoSigner):
		return noSignerError()
	case errors.As(err, &already):
		return &ExitError{Code: ExitRefused, Kind: "already-logged-in", Err: err,
			Commands: []suggest.Command{suggest.Roster("logout")},
			Details:  map[string]any{"npub": already.Account.Npub, "backend": already.Account.Backend}}
	case errors.Is(err, signer.ErrBadSecretKey):
		// The signer package prefixes the variable's name when the bad key
		// came from the environment: then the variable is what to fix.
		cmds := []suggest.Command{suggest.Roster("login", "--nsec").Because("paste the whole nsec1... or 64-hex key again"), suggest.Roster("login", "--generate").Because("or make a new key")}
		if strings.HasPrefix(err.Error(), "ROSTER_SECRET_KEY") {
			cmds = []suggest.Command{suggest.Shell("export ROSTER_SECRET_KEY=nsec1...").Because("the whole nsec or 64-hex key"), suggest.Shell("unset ROSTER_SECRET_KEY").Because("use the account from roster login instead")}
		}
		return &ExitError{Code: ExitUsage, Kind: "bad-secret-key", Err: err, Commands: cmds}
	case errors.Is(err, errStdinEnded):
		return &ExitError{Code: ExitUsage, Kind: "no-input", Err: err,
			Commands: []suggest.Command{suggest.Shell("printf '%s\\n' \"$NSEC\" \"$PASSPHRASE\" \"$PASSPHRASE\" | roster login --nsec").Because("a new login without a keyring: key, then the passphrase twice"), suggest.Shell("export ROSTER_SECRET_KEY=nsec1...").Because("scripts and CI: no stored key, no passphrase")}}
	case errors.Is(err, signer.ErrWrongPassphrase):
		return &ExitError{Code: ExitUsage, Kind: "wrong-passphrase", Err: err,
			Commands: []suggest.Command{suggest.Roster("whoami").Because("which account; then retry and type its passphrase"), suggest.Shell("roster logout && roster login --nsec").Because("forgotten: store the key again under a new passphrase")}}
	case errors.Is(err, fs.ErrPermission):
		// A login's files could not be written (or read): the way out is
		// the directory's permissions or another --home, not a new login.
		return &ExitError{Code: ExitFailure, Kind: "not-permitted",
			Err: fmt.Errorf("%v: the operating system does not permit it; make roster's data directory writable, or pass --home <a writable directory> (roster help environment)", err)}
	case errors.Is(err, signer.ErrBunkerUnreachable):
		return &ExitError{Code: ExitFailure, Kind: "bunker-unreachable",
			Err:      fmt.Errorf("%v; check that your bunker is online and connected to its relays, then retry", err),
			Commands: []suggest.Command{suggest.Roster("whoami").Because("which bunker this account uses"), suggest.Shell("roster logout && roster login --bunker '<bunker URL>'").Because("if the bunker moved to other relays")}}
	}
	return &ExitError{Code: ExitFailure, Kind: "signer", Err: err,
		Commands: []suggest.Command{suggest.Roster("whoami"), suggest.Roster("logout"), suggest.Roster("login", "--nsec")}}
}

// SignerEnv describes this invocation's world to the signer package.
func (a *Factory) SignerEnv(r *secretReader) (signer.Env, error) {
	home, err := a.DataDir()
	if err != nil {
		return signer.Env{}, UsageErr("%v", err)
	}
	errw := a.Io.Err // the closures must not hold the Factory (see openSigners)
	return signer.Env{
		Home:       home,
		SecretKey:  a.Io.Getenv("ROSTER_SECRET_KEY"),
		Keyring:    a.keyring(),
		Passphrase: r.Read,
		ScryptLogN: a.Seams.ScryptLogN,
		// The URL and notices come from the bunker: one line each.
		OnAuthURL: func(u string) {
			fmt.Fprintf(errw, "roster: the bunker asks you to approve this request at %s\n", termtext.Line(u))
		},
		Notice: func(m string) { fmt.Fprintf(errw, "roster: %s\n", termtext.Line(m)) },
	}, nil
}

// secretReader reads secrets (nsec, passphrases): without echo from a
// terminal, else one line at a time from stdin, so scripts and tests can pipe
// them. One reader serves a whole command so piped lines are not lost.
type secretReader struct {
	io *IoStreams // not the app: see openSigners
	br *bufio.Reader
}

func NewSecretReader(a *Factory) *secretReader {
	return &secretReader{io: a.Io, br: bufio.NewReader(a.Io.In)}
}

func (r *secretReader) Read(prompt string) (string, error) {
	if f, ok := r.io.In.(*os.File); ok && r.io.InTTY {
		fmt.Fprintf(r.io.Err, "%s: ", prompt)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(r.io.Err)
		if err != nil {
			return "", fmt.Errorf("read from the terminal: %w", err)
		}
		return string(b), nil
	}
	line, err := r.br.ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && line != "") {
		if errors.Is(err, io.EOF) {
			return "", fmt.Errorf("%s: %w", strings.ToLower(prompt[:1])+prompt[1:], errStdinEnded)
		}
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// errStdinEnded: a secret or passphrase was needed, stdin is not a terminal,
// and it ran out. That is the caller's input, not a failure of roster.
var errStdinEnded = errors.New("stdin ended before it was given (pipe it, or run from a terminal)")

// secretLike matches what may be a secret key in a message: an nsec, an
// ncryptsec or 64 hex characters. Compiled on first use, not at every
// start-up.
var secretLike = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)n(crypt)?sec1[0-9a-z]+|\b[0-9a-f]{64}\b`)
})

// RedactSecrets hides anything secret-shaped in a message about user input.
func RedactSecrets(s string) string { return secretLike().ReplaceAllString(s, "[redacted]") }
