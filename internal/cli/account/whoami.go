package account

import (
	"context"
	"fmt"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/signer"
	"github.com/spf13/cobra"
)

// WhoamiResult is roster.whoami/v1 (report.Whoami).
type WhoamiResult = report.Whoami

// NullIfEmpty is a JSON null for a field that does not apply.
func NullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func NewWhoamiCmd(a *cmdutil.Factory) *cobra.Command { return NewCmdWhoami(a, nil) }

// WhoamiOptions are `roster whoami`: only the shared flags.
type WhoamiOptions struct {
	Factory *cmdutil.Factory
}

// NewCmdWhoami builds whoami; runF, when given, runs instead of the read
// with the parsed options (tests).
func NewCmdWhoami(a *cmdutil.Factory, runF func(context.Context, *WhoamiOptions) error) *cobra.Command {
	return cmdutil.AddFlags(&cobra.Command{
		Use:   "whoami",
		Short: "Show the active signer: npub, hex pubkey and where the key lives",
		Long: `whoami shows who roster signs as, without unlocking the key (no passphrase
prompt, no bunker round trip). The backend is one of env (ROSTER_SECRET_KEY),
bunker, keyring or ncryptsec. With no signer it exits 2 and says how to log in.`,
		Example: `  roster whoami
  roster whoami --json   # {"schema":"roster.whoami/v1","npub":"npub1...","pubkey":"<hex>","backend":"keyring"}`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), &WhoamiOptions{Factory: a})
			}
			env, err := a.SignerEnv(cmdutil.NewSecretReader(a))
			if err != nil {
				return err
			}
			acct, err := signer.Identify(env)
			if err != nil {
				return cmdutil.SignerError(err)
			}
			res := WhoamiResult{Schema: "roster.whoami/v1", Npub: acct.Npub, Pubkey: acct.Pubkey, Backend: acct.Backend, Bunker: NullIfEmpty(acct.Bunker)}
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, res)
			}
			// The npub is whole even on a terminal: it is what was asked
			// for, to copy. The backend row wraps between words.
			fmt.Fprintln(a.Io.Out, res.Npub)
			fmt.Fprintf(a.Io.Out, "  pubkey   %s\n", res.Pubkey)
			home, _ := a.DataDir()
			render.FitLine(a.Io.Out, render.TerminalWidth(a), 11, fmt.Sprintf("  backend  %s (%s)", res.Backend, describeBackend(acct, home)))
			return nil
		},
	}, &a.Opts, cmdutil.OutputFlags|cmdutil.HomeFlag)
}
