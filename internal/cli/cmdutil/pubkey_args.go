package cmdutil

import (
	"context"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// Nip05Lookup is a pubkey argument given as a NIP-05 name and the key its
// domain lists for it; the preview shows it before anything is published.
// Its JSON (nip05_lookups) is report's.
type Nip05Lookup = report.NIP05Lookup

// Lookups are the NIP-05 names pubkey arguments were given as and the
// keys their domains listed: the argument resolver returns them and the
// renderer shows them (a preview, PrintLookups, nip05_lookups).
type Lookups []Nip05Lookup

// JSON is the lookups as nip05_lookups ([] when there were none).
func (l Lookups) JSON() []Nip05Lookup { return append([]Nip05Lookup{}, l...) }

// ResolvePubkeyArgs turns each pubkey flag value that is a NIP-05 name
// (bob@example.com) into the 64-hex key its domain lists, returning the
// lookups; npubs and hex pass through for the flag's own check. A name
// that cannot be looked up is exit 4 (not enough evidence) naming it:
// nothing is guessed, nothing published.
func (a *Factory) ResolvePubkeyArgs(ctx context.Context, flags map[string]*string) (Lookups, error) {
	var all Lookups
	for flag, v := range flags {
		pk, l, err := a.ResolvePubkeyArg(ctx, "--"+flag, *v, true, suggest.Roster("repo", "edit", "--"+flag, "<npub>"))
		if err != nil {
			return nil, err
		}
		*v = pk
		all = append(all, l...)
	}
	return all, nil
}

// ResolvePubkeyArg is one pubkey argument (label: "--owner", "<npub>"):
// a NIP-05 name becomes the 64-hex key its domain lists, anything else is
// returned as given for the caller's own check. A write (a key that gets
// a role or access) always asks the domain now; a read may use the
// answer the NIP-05 cache holds from the last day (the one profiles are
// verified with), and works --offline with it. Every answer is cached.
// The lookup made, if any, comes back with the key.
func (a *Factory) ResolvePubkeyArg(ctx context.Context, label, value string, write bool, retry suggest.Command) (string, Lookups, error) {
	s := strings.TrimSpace(value)
	if s == "" || !strings.Contains(s, "@") {
		return value, nil, nil
	}
	if _, err := gitstate.DecodePubkey(s); err == nil {
		return value, nil, nil
	}
	name := strings.ToLower(s)
	cached, _ := a.Store("")
	defer cached.Close()
	store := cached.C // nil: no cache
	now := a.Io.Now().Unix()
	if !write && store != nil {
		if c, ok, err := store.NIP05(name); err == nil && ok && c.Pubkey != "" && c.CheckedAt <= now && now-c.CheckedAt < discovery.NIP05MaxAge {
			return c.Pubkey, Lookups{{Name: name, Npub: graph.Npub(c.Pubkey)}}, nil
		}
	}
	if a.Opts.Offline {
		return "", nil, UsageErr("%s %s is a NIP-05 name, which needs the network to look up: pass the npub instead", label, s)
	}
	hctx, cancel := context.WithTimeout(ctx, a.Opts.Timeout)
	pk, _, err := gitstate.ResolveNIP05(hctx, s, a.HttpClient())
	cancel()
	if err != nil {
		return "", nil, &ExitError{Code: ExitIncomplete, Kind: "nip05",
			Err:      fmt.Errorf("%s %s: the NIP-05 lookup failed (%v); nothing was published", label, s, nip05Reason(err)),
			Commands: []suggest.Command{retry}}
	}
	if store != nil {
		_ = store.PutNIP05(name, cache.NIP05Check{Pubkey: pk, CheckedAt: now})
	}
	return pk, Lookups{{Name: name, Npub: graph.Npub(pk)}}, nil
}

// PrintLookups shows the keys the NIP-05 names of the arguments resolved
// to, in full (this is where the user checks which key a name meant), for
// the commands with no preview of their own; --json carries them as
// nip05_lookups.
func (a *Factory) PrintLookups(lookups Lookups) {
	if a.Opts.JSON {
		return
	}
	for _, l := range lookups {
		fmt.Fprintf(a.Io.Out, "looked up: %s is %s: its domain lists that key for the name\n", termtext.Line(l.Name), l.Npub)
	}
}

// nip05Reason is a lookup error without ResolveNIP05's advice about --repo.
func nip05Reason(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "; pass --repo"); i >= 0 {
		msg = msg[:i]
	}
	return msg
}
