package repo

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/suggest"
)

// SelectCoordinate resolves the selected coordinate in the spec's order.
// Outside a Git checkout only --repo can name one.
func SelectCoordinate(a *cmdutil.Factory, ctx context.Context) (gitstate.Selection, *gitstate.Checkout, error) {
	var sel gitstate.Selection
	co, err := gitstate.Open(a.Io.Dir)
	switch {
	case errors.Is(err, gitstate.ErrNotARepository):
		co = nil
		if a.Opts.Repo == "" {
			// The line is shell (cd, then roster repo), so it is rendered
			// here with the user's selectors (--relay, --home).
			here := render.Selectors(a).Apply(suggest.Roster("repo")).Line()
			return sel, nil, &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "no-coordinate",
				Err:      fmt.Errorf("not inside a Git checkout, and no --repo given: roster does not know which repository to read"),
				Commands: []suggest.Command{suggest.Roster("repo", "--repo", "<naddr|nostr://npub/identifier>"), suggest.Shell("cd <your clone> && " + here)}}
		}
		sel, err = gitstate.ResolveWithoutCheckout(a.Opts.Repo)
	case err != nil:
		return sel, nil, err
	default:
		sel, err = co.ResolveCoordinate(a.Opts.Repo)
	}
	if err != nil {
		ee := &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage", Err: err}
		var amb *gitstate.AmbiguousError
		if errors.As(err, &amb) {
			ee.Kind = "ambiguous-coordinate"
			ee.Commands, ee.Details = ambiguityChoices(amb)
		} else if errors.Is(err, gitstate.ErrNoCoordinate) {
			ee.Kind = "no-coordinate"
			ee.Commands = []suggest.Command{suggest.Roster("repo", "--repo", "<naddr|nostr://npub/identifier>"), suggest.Git("config", "nostr.repo", "<naddr>")}
		}
		if ee.Kind == "usage" {
			ee.Commands = coordinateUsageCommands(a, co != nil)
		}
		return sel, co, ee
	}
	if sel.Source == gitstate.SourceFlag {
		sel.Via = a.Opts.RepoFrom // ROSTER_REPO stood for --repo: the target line says which
	}
	if sel.NeedsNIP05() {
		if a.Opts.Offline {
			return sel, co, &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage",
				Err:      fmt.Errorf("the coordinate names %s, a NIP-05 name that needs the network to look up", sel.NIP05),
				Commands: []suggest.Command{suggest.Roster("repo", "--repo", "<naddr|nostr://npub/identifier>").With("--offline"), suggest.Roster("repo")}}
		}
		hctx, cancel := context.WithTimeout(ctx, a.Opts.Timeout)
		defer cancel()
		if sel, err = sel.Resolve(hctx, a.HttpClient()); err != nil {
			return sel, co, &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "nip05", Err: fmt.Errorf("look up %s: %w", sel.NIP05, err),
				Commands: []suggest.Command{suggest.Roster("repo", "--repo", "<naddr|nostr://npub/identifier>")}}
		}
	}
	return sel, co, nil
}

// ambiguityChoices turns each distinct candidate coordinate into a command
// that selects it, and lists the candidates for --json, so choosing is a
// copy and paste rather than a lookup.
func ambiguityChoices(amb *gitstate.AmbiguousError) ([]suggest.Command, map[string]any) {
	var cmds []suggest.Command
	cands := []map[string]any{}
	seen := map[string]bool{}
	for _, c := range amb.Candidates {
		cands = append(cands, map[string]any{"coordinate": c.Display(), "from": c.From})
		if c.Coordinate.Pubkey == "" || seen[c.Coordinate.ATag()] {
			continue // a NIP-05 candidate has no key yet
		}
		seen[c.Coordinate.ATag()] = true
		url := gitstate.NostrURL(c.Coordinate, c.Relays) // its relay hints say where to ask
		cmds = append(cmds, suggest.Roster("repo", "--repo", url).Because(c.From),
			suggest.Git("config", "nostr.repo", gitstate.EncodeNaddr(c.Coordinate, c.Relays)).Because("choose it for good"))
	}
	if len(cmds) == 0 {
		cmds = []suggest.Command{suggest.Roster("repo", "--repo", "<naddr|nostr://npub/identifier>"), suggest.Git("config", "nostr.repo", "<naddr>")}
	}
	return cmds, map[string]any{"candidates": cands}
}

// coordinateUsageCommands are the ways to name a repository correctly after
// --repo (or a checkout's configuration) named one badly. A bare
// "npub1.../identifier" gets its nostr:// spelling.
func coordinateUsageCommands(a *cmdutil.Factory, inCheckout bool) []suggest.Command {
	var cmds []suggest.Command
	if owner, id, ok := strings.Cut(a.Opts.Repo, "/"); ok && id != "" && !strings.Contains(owner, ":") &&
		(strings.HasPrefix(owner, "npub1") || len(owner) == 64) {
		cmds = append(cmds, suggest.Roster("repo", "--repo", "nostr://"+a.Opts.Repo))
	}
	cmds = append(cmds, suggest.Roster("repo", "--repo", "nostr://<npub>/<identifier>"),
		suggest.Roster("repo", "--repo", "naddr1...").Because("the whole naddr, as it was shared"))
	switch {
	case inCheckout && a.Opts.Repo == "":
		// The checkout's own configuration named the bad coordinate.
		cmds = append(cmds, suggest.Git("config", "nostr.repo", "<naddr>").Because("select the right one for this checkout"),
			suggest.Git("config", "--unset", "nostr.repo").Because("or fall back to the checkout's nostr:// remotes"))
	case inCheckout:
		cmds = append(cmds, suggest.Git("remote", "-v").Because("the remote names --repo accepts"))
	}
	return cmds
}
