package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// nip05Lookup is a pubkey argument given as a NIP-05 name and the key its
// domain lists for it; the preview shows it before anything is published.
type nip05Lookup struct {
	Name string `json:"name"`
	Npub string `json:"npub"`
}

// resolvePubkeyArgs turns each pubkey flag value that is a NIP-05 name
// (bob@example.com) into the 64-hex key its domain lists, recording the
// lookup; npubs and hex pass through for the flag's own check. A name
// that cannot be looked up is exit 4 (not enough evidence) naming it:
// nothing is guessed, nothing published.
func (a *app) resolvePubkeyArgs(ctx context.Context, flags map[string]*string) error {
	for flag, v := range flags {
		s := strings.TrimSpace(*v)
		if s == "" || !strings.Contains(s, "@") {
			continue
		}
		if _, err := gitstate.DecodePubkey(s); err == nil {
			continue
		}
		if a.opts.Offline {
			return usageErr("--%s %s is a NIP-05 name, which needs the network to look up: pass the npub instead", flag, s)
		}
		hctx, cancel := context.WithTimeout(ctx, a.opts.Timeout)
		pk, _, err := gitstate.ResolveNIP05(hctx, s, a.httpClient())
		cancel()
		if err != nil {
			return &exitError{Code: exitIncomplete, Kind: "nip05",
				Err:      fmt.Errorf("--%s %s: the NIP-05 lookup failed (%v); nothing was published", flag, s, nip05Reason(err)),
				Commands: []suggest.Command{suggest.Roster("repo", "edit", "--"+flag, "<npub>")}}
		}
		a.lookups = append(a.lookups, nip05Lookup{Name: strings.ToLower(s), Npub: graph.Npub(pk)})
		*v = pk
	}
	return nil
}

// nip05Reason is a lookup error without ResolveNIP05's advice about --repo.
func nip05Reason(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "; pass --repo"); i >= 0 {
		msg = msg[:i]
	}
	return msg
}
