package root

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/signer"
	"github.com/spf13/cobra"
)

// RefuseSecretArguments is the refusal of a command line that carries a
// secret key: an nsec (alone or inside a value such as
// nostr://nsec1.../id), an ncryptsec, or a bunker:// URL with a secret
// anywhere but `roster login --bunker`. It runs before the command tree
// parses anything, so no message, JSON, debug line or usage error
// (unknown flag, stray argument) can repeat it; it names only where the
// secret was (the flag, or the argument's position). A 64-hex value may be
// a public key, so it is never refused here.
func RefuseSecretArguments(root *cobra.Command, args []string) *cmdutil.ExitError {
	if len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		args = args[1:]
	}
	target, _, err := root.Find(args)
	if err != nil {
		target = nil
	}
	login := target != nil && target.Name() == "login" && target.Parent() == root
	for i, arg := range args {
		what := secretIn(arg, login)
		if what == "" {
			continue
		}
		where := fmt.Sprintf("argument %d", i+1)
		if strings.HasPrefix(arg, "-") {
			where = strings.SplitN(arg, "=", 2)[0]
		} else if i > 0 && takesValue(target, args[i-1]) {
			where = args[i-1]
		}
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "secret-key-argument",
			Err: fmt.Errorf("%s: that is a secret key: never paste it here (%s); nothing was done. "+
				"It may now be in your shell history: if it is a key you use, treat it as exposed", where, what),
			Details: map[string]any{"argument": where, "kind": what}}
	}
	return nil
}

// secretIn names the kind of secret arg holds ("nsec", "ncryptsec",
// "bunker secret"), or is "" when it holds none. A bunker URL is a
// secret only with its secret= parameter, and not for login.
func secretIn(arg string, login bool) string {
	if !login {
		if i := strings.Index(strings.ToLower(arg), "bunker://"); i >= 0 {
			if u, err := url.Parse(arg[i:]); err == nil && u.Query().Get("secret") != "" {
				return "bunker secret"
			}
		}
	}
	for _, tok := range strings.FieldsFunc(arg, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		tok = strings.ToLower(tok)
		switch {
		case strings.HasPrefix(tok, "ncryptsec1") && len(tok) > len("ncryptsec1"):
			return "ncryptsec"
		case strings.HasPrefix(tok, "nsec1") && (len(tok) == 63 || isNsec(tok)):
			return "nsec"
		}
	}
	return ""
}

// isNsec is whether s decodes as an nsec; the bech32 decoder may panic on
// hostile input, which is then not an nsec.
func isNsec(s string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	_, err := signer.ParseSecretKey(s)
	return err == nil
}

// takesValue is whether arg is a flag of target (or of the commands above
// it) that takes the next argument as its value.
func takesValue(target *cobra.Command, arg string) bool {
	if target == nil || !strings.HasPrefix(arg, "--") || strings.Contains(arg, "=") {
		return false
	}
	f := target.Flags().Lookup(strings.TrimPrefix(arg, "--"))
	if f == nil {
		f = target.InheritedFlags().Lookup(strings.TrimPrefix(arg, "--"))
	}
	return f != nil && f.NoOptDefVal == ""
}
