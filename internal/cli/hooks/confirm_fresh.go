package hooks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/hooks"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/termtext"
)

// maintainers.md: "Successful confirmation, including an immediately
// confirming add, invalidates state derived from the invitee's former
// component. No push or automatic kind 30618 publication is allowed until
// a fresh fetch verifies the accepted state against the local refs."
//
// A successful `roster repo accept` leaves a marker in the data directory
// (not the cache, which `roster cache clear` may remove at any time) for
// the accepted coordinate and for the invitee's former one. The pre-push
// guard, finding one for the repository pushed, insists on a complete read
// from the relays and removes the markers once the pushed refs check out.
// The cache itself keeps only verified events (and relay documents and
// verified projections), never state derived from them, so there is
// nothing of the former component's to drop there: every read resolves
// the component afresh from the events.

// FreshFetchDir is where the markers live under the data directory.
const FreshFetchDir = "fresh-fetch"

// freshFetchMarker is one marker file's content.
type freshFetchMarker struct {
	Note        string `json:"note"`
	Signer      string `json:"signer"`
	Accepted    string `json:"accepted"`         // the accepted coordinate (a tag)
	Former      string `json:"former,omitempty"` // the invitee's own coordinate of the same identifier
	ConfirmedAt int64  `json:"confirmed_at"`
}

// freshFetchPath is the marker of signer's coordinate: <data>/fresh-fetch/
// <signer>/<sha256 of the a tag>.json (an identifier is any string, so it
// is not a file name).
func freshFetchPath(data, signer string, c graph.Coordinate) string {
	sum := sha256.Sum256([]byte(c.ATag()))
	return filepath.Join(data, FreshFetchDir, safeHex(signer), hex.EncodeToString(sum[:])+".json")
}

func safeHex(s string) string {
	if _, err := hex.DecodeString(s); err != nil || s == "" {
		sum := sha256.Sum256([]byte(s))
		return hex.EncodeToString(sum[:])
	}
	return s
}

// markConfirmed records signer's confirmation in accepted (and their
// former coordinate of the same identifier), files 0600 in 0700
// directories, each written atomically.
func markConfirmed(a *cmdutil.Factory, signer string, accepted graph.Coordinate) error {
	data, err := a.DataDir()
	if err != nil {
		return err
	}
	at := a.Io.Now()
	m := freshFetchMarker{
		Note:        fmt.Sprintf("confirmed at %s; the next push needs a fresh fetch", at.UTC().Format(time.RFC3339)),
		Signer:      signer,
		Accepted:    accepted.ATag(),
		ConfirmedAt: at.Unix(),
	}
	coords := []graph.Coordinate{accepted}
	if former := graph.NewCoordinate(signer, accepted.Identifier); former != accepted {
		m.Former = former.ATag()
		coords = append(coords, former)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	for _, c := range coords {
		p := freshFetchPath(data, signer, c)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return err
		}
		tmp := p + ".tmp"
		if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
			return err
		}
		if err := os.Rename(tmp, p); err != nil {
			os.Remove(tmp)
			return err
		}
	}
	return nil
}

// pendingConfirmation is the marker of signer's coordinate c: its path,
// and whether one is there. A marker that exists but cannot be read still
// counts (the guard does not skip the fresh fetch on a read error).
func pendingConfirmation(a *cmdutil.Factory, signer string, c graph.Coordinate) (string, *freshFetchMarker, bool) {
	data, err := a.DataDir()
	if err != nil {
		return "", nil, false
	}
	p := freshFetchPath(data, signer, c)
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return p, nil, false
	}
	var m freshFetchMarker
	if err != nil || json.Unmarshal(b, &m) != nil {
		return p, nil, true
	}
	return p, &m, true
}

// clearConfirmation removes the marker at p and the other coordinate's
// marker it names: the fresh fetch verified the accepted state.
func clearConfirmation(a *cmdutil.Factory, p string, m *freshFetchMarker) error {
	var first error
	if m != nil {
		data, err := a.DataDir()
		if err == nil {
			for _, tag := range []string{m.Accepted, m.Former} {
				if c, err := graph.ParseATag(tag); err == nil {
					if err := removeIfThere(freshFetchPath(data, m.Signer, c)); err != nil && first == nil {
						first = err
					}
				}
			}
		}
	}
	if err := removeIfThere(p); err != nil && first == nil {
		first = err
	}
	return first
}

func removeIfThere(p string) error {
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// RecordConfirmation is markConfirmed after a successful accept; a marker
// that cannot be written is said on stderr (the confirmation stands).
func RecordConfirmation(a *cmdutil.Factory, ctx context.Context, s signer.Signer, v *repo.RepoView) {
	if v == nil {
		return
	}
	pk, err := s.PublicKey(ctx)
	if err == nil {
		err = markConfirmed(a, pk, v.Coordinate())
	}
	if err != nil {
		fmt.Fprintf(a.Io.Err, "roster: warning: could not record that your next push needs a fresh fetch of the accepted state (%s); fetch and compare before pushing: roster repo state\n", termtext.Line(err.Error()))
	}
}

// pendingFresh is a confirmation the pre-push guard must verify.
type pendingFresh struct {
	coord  graph.Coordinate
	path   string
	marker *freshFetchMarker
}

// confirmationToVerify is the marker of the checkout's selected
// coordinate, or nil: no marker (or no coordinate to look one up by).
func confirmationToVerify(a *cmdutil.Factory, viewer string) *pendingFresh {
	co, err := gitstate.Open(a.Io.Dir)
	if err != nil {
		return nil
	}
	sel, err := co.ResolveCoordinate(a.Opts.Repo)
	if err != nil {
		return nil
	}
	p, m, ok := pendingConfirmation(a, viewer, sel.Coordinate)
	if !ok {
		return nil
	}
	return &pendingFresh{coord: sel.Coordinate, path: p, marker: m}
}

// incomplete is the refusal of a push whose fresh read could not be made:
// the budget ran out, no relay answered, or the read failed. nil when the
// read came back (the guard then decides on it, refusing it if it is not
// complete).
func (f *pendingFresh) incomplete(v *repo.RepoView, inTime bool, err error, budget time.Duration) error {
	var why string
	var incomplete *discovery.Incomplete
	var notFound *discovery.NotFound
	switch {
	case !inTime:
		why = fmt.Sprintf("the guard's %s budget ran out before the relays answered", budget)
	case errors.As(err, &incomplete):
		why = fmt.Sprintf("no relay answered within %s", budget)
		if f := incomplete.View.Fetch; f != nil {
			var silent []string
			for _, r := range f.Relays {
				silent = append(silent, cmdutil.RelayFailure(r.URL, r.Status, r.Reason))
			}
			why += " (" + strings.Join(termtext.Lines(silent), ", ") + ")"
		}
	case errors.As(err, &notFound) && notFound.View.Complete():
		return nil
	case err != nil:
		msg, _, _ := strings.Cut(err.Error(), "\n")
		why = "the read failed: " + msg
	default:
		return nil
	}
	fd := hooks.NeedsFreshFetch(graph.Npub(f.coord.Pubkey)+"/"+f.coord.Identifier, why)
	return &cmdutil.ExitError{Code: cmdutil.ExitRefused, Kind: fd.Reason,
		Err:      fmt.Errorf("refusing to push: %s", fd.Message),
		Details:  map[string]any{"coordinate": f.coord.ATag(), "marker": f.path},
		Commands: fd.Commands}
}

// verifiedConfirmation removes the markers once a complete read checked
// the push: the accepted state was verified against the pushed refs.
func verifiedConfirmation(a *cmdutil.Factory, f *pendingFresh) {
	if err := clearConfirmation(a, f.path, f.marker); err != nil {
		fmt.Fprintf(a.Io.Err, "roster hook: the push was checked against a fresh read of the accepted state, but %s could not be removed (%s); the next push is checked the same way\n", termtext.Line(f.path), termtext.Line(err.Error()))
	}
}
