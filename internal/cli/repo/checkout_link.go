package repo

import (
	"errors"
	"fmt"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// LinkAcceptedCheckout links the checkout accept ran in to the coordinate it
// accepted: a checkout that selects no coordinate of its own (no nostr.repo,
// no nostr:// remote, no maintainers.yaml) gets git config nostr.repo, the
// naddr with the selection's relay hints (else the relays asked), so
// `roster repo` and the hooks there work with no further step. A checkout
// that selects a different coordinate is never re-rooted: out gets the
// `git config nostr.repo …` command to run instead. Outside a checkout, or
// when the checkout already selects the coordinate, nothing happens.
func LinkAcceptedCheckout(v *RepoView, out *report.Mutation) {
	if v == nil || v.Checkout == nil || v.Selection.Source != gitstate.SourceFlag {
		return
	}
	hints := v.Selection.Relays
	if len(hints) == 0 && len(v.Relays) > 0 {
		hints = v.Relays[:1]
	}
	naddr := gitstate.EncodeNaddr(v.Coordinate(), hints)
	own, err := v.Checkout.ResolveCoordinate("")
	switch {
	case errors.Is(err, gitstate.ErrNoCoordinate):
		if err := v.Checkout.SetNostrRepo(naddr); err != nil {
			out.Advice = append(out.Advice, suggest.Guidance{
				Whats:   []string{"this checkout could not be linked to the repository (" + err.Error() + "); link it yourself"},
				Command: ptr(suggest.Git("config", "nostr.repo", naddr))})
			return
		}
		out.Linked = &naddr
	case err == nil && own.Coordinate == v.Coordinate():
		// Already selected (by nostr.repo, a remote or maintainers.yaml).
	default:
		what := "this checkout selects another repository coordinate, which accept leaves as it is"
		if err == nil {
			what = fmt.Sprintf("this checkout selects %s (from %s), which accept leaves as it is", render.DisplayCoord(own.Coordinate), own.Detail)
		}
		out.Advice = append(out.Advice, suggest.Guidance{
			Whats:   []string{what + "; to work on the repository you accepted here, select it"},
			Command: ptr(suggest.Git("config", "nostr.repo", naddr))})
	}
}

// HooksNeedCoordinate refuses to install hooks in a checkout that selects
// no repository coordinate: the hooks run without --repo, so there they
// would check nothing. The refusal names the commands that link it.
func HooksNeedCoordinate(a *cmdutil.Factory) error {
	co, err := gitstate.Open(a.Io.Dir)
	if err != nil {
		return nil // hooksTarget said what is wrong with the directory
	}
	if _, err := co.ResolveCoordinate(""); !errors.Is(err, gitstate.ErrNoCoordinate) {
		return nil // a selection, or an error the hooks report when they run
	}
	return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "no-coordinate",
		Err: errors.New("this checkout names no Nostr repository, so roster's hooks would check nothing here: link it first " +
			"(roster repo accept --repo <nostr-url> links the checkout it runs in), then install the hooks"),
		Commands: []suggest.Command{
			suggest.Git("config", "nostr.repo", "<naddr|nostr-url>").Because("link this checkout to the repository"),
			suggest.Roster("hooks", "install").Because("then install the hooks")}}
}

// PrintLinked says in one line that accept linked the checkout, or prints
// the command that would select the accepted coordinate (human output).
func PrintLinked(a *cmdutil.Factory, out *report.Mutation) {
	if out.Linked != nil {
		fmt.Fprintf(a.Io.Out, "this checkout is now linked to the repository: git config nostr.repo %s\n", termtext.Line(*out.Linked))
	}
}

func ptr[T any](v T) *T { return &v }
