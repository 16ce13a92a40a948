package account

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/suggest"
	"github.com/spf13/cobra"
)

// NewLoginCmd is `roster login`.
func NewLoginCmd(a *cmdutil.Factory) *cobra.Command { return NewCmdLogin(a, nil) }

// LoginOptions are `roster login` as its flags gave it; the secret is read
// only when it runs.
type LoginOptions struct {
	Factory                               *cmdutil.Factory
	Nsec, Ncryptsec, Generate, ShowSecret bool
	Bunker                                string
}

// NewCmdLogin builds login; runF, when given, runs instead of the login
// with the parsed options (tests).
func NewCmdLogin(a *cmdutil.Factory, runF func(context.Context, *LoginOptions) error) *cobra.Command {
	o := &LoginOptions{Factory: a}
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Store your key (OS keyring, or a NIP-46 bunker) and make it the active signer",
		Long: `login makes a key the one roster signs with, and records the active account
(npub and backend, never a secret) in account.json in the data directory
($XDG_DATA_HOME/roster, default ~/.local/share/roster; --home or ROSTER_HOME
when set).

  --nsec      reads an nsec or 64-hex secret key: from a prompt without echo
              on a terminal, else one line from stdin. Never pass the key as an
              argument: it would land in shell history and process listings.
  --ncryptsec reads a NIP-49 ncryptsec (an encrypted key another client
              exported), then its passphrase, and stores the key as --nsec does.
  --bunker    connects to a NIP-46 remote signer; roster keeps only a client
              key, and your key stays in the bunker.
  --generate  creates a new key and shows its npub; --show-secret also prints
              the nsec, this one time only.

Keys and bunker client keys go to the OS keyring (service "roster", account =
the npub). With no keyring service, roster stores them as a NIP-49 ncryptsec
file in the data directory (mode 0600), encrypted with a passphrase you type.
ROSTER_SECRET_KEY, when set, takes precedence over any login.`,
		Example: `  roster login --nsec                         # paste your nsec at the prompt (not echoed)
  pass show nostr/nsec | roster login --nsec  # or pipe it
  roster login --bunker 'bunker://<remote-signer-pubkey>?relay=wss://relay.example&secret=...'
  printf '%s\n%s\n' "$NCRYPTSEC" "$PASS" | roster login --ncryptsec   # import an encrypted key
  roster login --generate                     # new key; prints the npub only
  roster login --generate --show-secret       # also prints the nsec, once
  roster login --nsec --json                  # {"schema":"roster.login/v1","npub":...}`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				// Never echo the argument: it is probably a secret key.
				return cmdutil.UsageErr("login takes no arguments; never put a secret key on the command line (it lands in shell history): " +
					"run `roster login --nsec` and type it at the prompt, or pipe it on stdin")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return runLogin(cmd.Context(), a, o, runF) },
	}
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if uf := cmdutil.UnknownFlagError(c, err); uf != nil {
			return uf
		}
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage", Err: errors.New(cmdutil.RedactSecrets(err.Error()) +
			" (--nsec takes no value: type the key at the prompt or pipe it on stdin)")}
	})
	f := cmd.Flags()
	f.BoolVar(&o.Nsec, "nsec", false, "read an nsec or hex secret key from a no-echo prompt, or from stdin")
	f.BoolVar(&o.Ncryptsec, "ncryptsec", false, "import a NIP-49 ncryptsec (then its passphrase) from a prompt, or from stdin")
	f.StringVar(&o.Bunker, "bunker", "", "log in through a NIP-46 remote signer (bunker:// URL)")
	f.BoolVar(&o.Generate, "generate", false, "generate a new key")
	f.BoolVar(&o.ShowSecret, "show-secret", false, "with --generate: print the new nsec, this one time")
	cmdutil.AddFlags(cmd, &a.Opts, cmdutil.OutputFlags|cmdutil.HomeFlag)
	return cmd
}

// LoginResult is roster.login/v1 (report.Login).
type LoginResult = report.Login

// runLogin refuses the flag combinations login cannot act on (exactly one
// way to log in, --show-secret only with --generate), then runs runF when
// given, else the login.
func runLogin(ctx context.Context, a *cmdutil.Factory, o *LoginOptions, runF func(context.Context, *LoginOptions) error) error {
	modes := 0
	for _, on := range []bool{o.Nsec, o.Ncryptsec, o.Generate, o.Bunker != ""} {
		if on {
			modes++
		}
	}
	if modes != 1 {
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage",
			Err:      errors.New("choose exactly one of --nsec, --ncryptsec, --bunker <url> or --generate"),
			Commands: []suggest.Command{suggest.Roster("login", "--nsec"), suggest.Roster("login", "--bunker", "bunker://..."), suggest.Roster("login", "--generate")}}
	}
	if o.ShowSecret && !o.Generate {
		return cmdutil.UsageErr("--show-secret only applies to --generate (roster shows no other key)")
	}
	if runF != nil {
		return runF(ctx, o)
	}
	r := cmdutil.NewSecretReader(a)
	env, err := a.SignerEnv(r)
	if err != nil {
		return err
	}
	var acct signer.Account
	res := LoginResult{Schema: "roster.login/v1", EnvKeyOverrides: env.SecretKey != ""}
	switch {
	case o.Nsec:
		secret, err := r.Read("nsec or hex secret key")
		if err != nil {
			return cmdutil.UsageErr("%v", err)
		}
		if acct, err = signer.StoreKey(env, secret, false); err != nil {
			return loginError(err, o)
		}
	case o.Ncryptsec:
		nc, err := r.Read("ncryptsec")
		if err != nil {
			return cmdutil.UsageErr("%v", err)
		}
		if acct, err = signer.ImportNcryptsec(env, nc); err != nil {
			return loginError(err, o)
		}
	case o.Generate:
		sk := signer.GenerateKey()
		if acct, err = signer.StoreKey(env, sk, !o.ShowSecret); err != nil {
			return loginError(err, o)
		}
		res.Generated = true
		if o.ShowSecret {
			nsec, err := signer.EncodeNsec(sk)
			if err != nil {
				return err
			}
			res.Nsec = &nsec
		}
	default:
		// A malformed URL is the user's input (exit 2), checked before any
		// network; the message never repeats the URL, which holds a secret.
		if _, err := signer.ParseBunkerURL(o.Bunker); err != nil {
			return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage", Err: err,
				Commands: []suggest.Command{suggest.Roster("login", "--bunker", "bunker://<64-hex remote signer pubkey>?relay=wss://<relay>&secret=<one-time secret>").Because("as your bunker shows it")}}
		}
		if acct, err = signer.StoreBunker(ctx, env, o.Bunker); err != nil {
			return loginError(err, o)
		}
	}
	res.Npub, res.Pubkey, res.Backend, res.Bunker = acct.Npub, acct.Pubkey, acct.Backend, NullIfEmpty(acct.Bunker)
	if res.EnvKeyOverrides {
		fmt.Fprintln(a.Io.Err, "roster: ROSTER_SECRET_KEY is set and takes precedence over this login until you unset it")
	}
	if res.Nsec != nil {
		fmt.Fprintln(a.Io.Err, "roster: this is the only time roster shows the new secret key; store it somewhere safe")
	}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, res)
	}
	verb := "Logged in as"
	if res.Generated {
		verb = "Generated a new key and logged in as"
	}
	fmt.Fprintf(a.Io.Out, "%s %s (%s)\n", verb, res.Npub, describeBackend(acct, env.Home))
	if res.Nsec != nil {
		fmt.Fprintf(a.Io.Out, "secret key: %s\n", *res.Nsec)
	}
	return nil
}

// loginError maps what the user can fix at login to exit 2 with the login
// to retry: a new passphrase typed empty or twice differently. A bunker that
// could not be connected names the bunker (redacted: never its secret) and
// what to check. Anything else is signerError's.
func loginError(err error, o *LoginOptions) error {
	retry := suggest.Roster("login", "--nsec")
	switch {
	case o.Generate && o.ShowSecret:
		retry = suggest.Roster("login", "--generate", "--show-secret")
	case o.Generate:
		retry = suggest.Roster("login", "--generate")
	case o.Ncryptsec:
		retry = suggest.Roster("login", "--ncryptsec")
	case o.Bunker != "":
		retry = suggest.Roster("login", "--bunker", "<bunker URL, as your bunker shows it>")
	}
	var bce *signer.BunkerConnectError
	switch {
	case errors.Is(err, signer.ErrPassphraseMismatch):
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "passphrase-mismatch", Err: err,
			Commands: []suggest.Command{retry.Because("then type the same new passphrase twice")}}
	case errors.Is(err, signer.ErrEmptyPassphrase):
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "empty-passphrase", Err: err,
			Commands: []suggest.Command{retry.Because("then type a non-empty passphrase, twice")}}
	case errors.As(err, &bce):
		return bunkerConnectError(bce)
	}
	return cmdutil.SignerError(err)
}

// bunkerConnectError is exit 1 (the network or the bunker failed, not the
// user's input): it names the bunker and its relays, never the secret, and
// says what to check before retrying.
func bunkerConnectError(e *signer.BunkerConnectError) *cmdutil.ExitError {
	relays := strings.Join(e.Relays, ", ")
	kind, check := "bunker-refused", "check what the bunker says about this client (a one-time secret works once: ask the bunker for a new URL)"
	if errors.Is(e, signer.ErrBunkerUnreachable) {
		kind, check = "bunker-unreachable", "check that the bunker is online and connected to "+relays
	}
	// One sentence, quoting what the bunker or its relay replied.
	return (&cmdutil.ExitError{Code: cmdutil.ExitFailure, Kind: kind,
		Err:     fmt.Errorf("%v; %s, then retry; nothing was stored", e, check),
		Details: map[string]any{"bunker": e.Bunker, "relays": e.Relays},
		Commands: []suggest.Command{
			suggest.Roster("login", "--bunker", e.Bunker+"&secret=<one-time secret, if the bunker gave one>").Because("retry once the bunker is online"),
			suggest.Roster("login", "--nsec").Because("or log in with a key instead")}}).OneLine()
}

// describeBackend says in words where the key is.
func describeBackend(acct signer.Account, home string) string {
	switch acct.Backend {
	case signer.BackendKeyring:
		return "key in the OS keyring"
	case signer.BackendNcryptsec:
		return "key encrypted with your passphrase in " + strings.TrimRight(home, "/") + "/" + signer.KeyFile
	case signer.BackendBunker:
		return "NIP-46 bunker " + acct.Bunker
	case signer.BackendEnv:
		return "ROSTER_SECRET_KEY"
	}
	return acct.Backend
}

// NewLogoutCmd is `roster logout`.
func NewLogoutCmd(a *cmdutil.Factory) *cobra.Command { return NewCmdLogout(a, nil) }

// LogoutOptions are `roster logout`: only the shared flags.
type LogoutOptions struct {
	Factory *cmdutil.Factory
}

// NewCmdLogout builds logout; runF, when given, runs instead of the logout
// with the parsed options (tests).
func NewCmdLogout(a *cmdutil.Factory, runF func(context.Context, *LogoutOptions) error) *cobra.Command {
	return cmdutil.AddFlags(&cobra.Command{
		Use:   "logout",
		Short: "Remove the stored key (keyring entry or ncryptsec file) and the active account",
		Long: `logout deletes the logged-in account's secret from wherever roster stored it
(the OS keyring entry or the ncryptsec file; for a bunker login, the client
key) and then the account record. A bunker may still list the client key as
authorized: revoke it in the bunker too. ROSTER_SECRET_KEY lives in your
environment, not in roster: unset it yourself.`,
		Example: `  roster logout
  roster logout --json   # {"schema":"roster.logout/v1","logged_out":true,...}`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), &LogoutOptions{Factory: a})
			}
			return runLogout(a)
		},
	}, &a.Opts, cmdutil.OutputFlags|cmdutil.HomeFlag)
}

// LogoutResult is roster.logout/v1 (report.Logout).
type LogoutResult = report.Logout

func runLogout(a *cmdutil.Factory) error {
	env, err := a.SignerEnv(cmdutil.NewSecretReader(a))
	if err != nil {
		return err
	}
	acct, ok, err := signer.Logout(env)
	if err != nil {
		return cmdutil.SignerError(err)
	}
	res := LogoutResult{Schema: "roster.logout/v1", LoggedOut: ok, Npub: NullIfEmpty(acct.Npub), Backend: NullIfEmpty(acct.Backend),
		BunkerClientPubkey: NullIfEmpty(acct.BunkerClientPubkey), EnvKeyStillSet: env.SecretKey != ""}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, res)
	}
	if !ok {
		fmt.Fprintln(a.Io.Out, "Not logged in; nothing to remove.")
	} else {
		fmt.Fprintf(a.Io.Out, "Logged out %s: removed the %s.\n", acct.Npub, removedWhat(acct))
		if acct.BunkerClientPubkey != "" {
			fmt.Fprintf(a.Io.Out, "The bunker may still authorize client %s: revoke it there.\n", acct.BunkerClientPubkey)
		}
	}
	if res.EnvKeyStillSet {
		fmt.Fprintln(a.Io.Err, "roster: ROSTER_SECRET_KEY is still set in your environment and roster still signs with it; unset it to stop")
	}
	return nil
}

func removedWhat(acct signer.Account) string {
	switch acct.Backend {
	case signer.BackendKeyring:
		return "key from the OS keyring"
	case signer.BackendNcryptsec:
		return "encrypted key file"
	case signer.BackendBunker:
		return "bunker client key and session"
	}
	return "stored key"
}
