package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/spf13/cobra"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/statepub"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

const (
	stateSchema        = "roster.state/v1"
	statePublishSchema = "roster.state-publish/v1"
)

// newRepoStateCmd is `roster repo state`: the resolved kind 30618 state
// and, in a checkout, how the checkout differs from it, both ways.
func newRepoStateCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "state",
		Short: "Show the repository's resolved Git state and how this checkout differs from it",
		Long: `roster repo state shows the kind 30618 state in effect: the newest state
event from a confirmed maintainer (deleted ones skipped), its HEAD and refs.

In a checkout it compares the checkout's branches and tags with it, both
ways: "to align this checkout" lists what to add, update or remove locally
(and the default branch to set) to match the state; "publishing this
checkout would" lists what 'roster repo state publish' would change in the
state. A state branch this checkout has only as the nostr:// remote's
remote-tracking branch at the same commit (a plain git clone) is aligned.
The default branch is compared with the state's HEAD, not with the branch
checked out.`,
		Example: `  roster repo state
  roster repo state --json
  roster repo state publish --dry-run`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := a.loadRepo(cmd.Context(), partialEvidence)
			if err != nil {
				return err
			}
			rep := stateReportJSON{Schema: stateSchema, Coordinate: coordinateOf(v.Coordinate()), Complete: v.Complete(), State: stateOf(v.State)}
			if v.Checkout != nil {
				co, err := checkoutAlignment(v)
				if err != nil {
					return err
				}
				rep.Checkout = co
			}
			if a.opts.JSON {
				return writeJSON(a, rep)
			}
			renderStateHuman(a.io.Out, rep)
			return nil
		},
	}
	cmd.AddCommand(newRepoStatePublishCmd(a))
	return cmd
}

// stateReportJSON is roster.state/v1.
type stateReportJSON struct {
	Schema     string               `json:"schema"`
	Coordinate report.Coordinate    `json:"coordinate"`
	Complete   bool                 `json:"complete"`
	State      *stateEventJSON      `json:"state"`
	Checkout   *checkoutCompareJSON `json:"checkout"`
}

type stateEventJSON struct {
	EventID   string            `json:"event_id"`
	Author    string            `json:"author"`
	CreatedAt int64             `json:"created_at"`
	Head      string            `json:"head"`
	Refs      map[string]string `json:"refs"`
}

type checkoutCompareJSON struct {
	Dir        string                `json:"dir"`
	Remote     string                `json:"remote"`
	Aligned    bool                  `json:"aligned"`
	Head       string                `json:"head"`
	Align      []preflight.RefAction `json:"align"`
	ForceWould []preflight.RefAction `json:"force_would"`
	Tracked    []string              `json:"tracked"`
}

func coordinateOf(c graph.Coordinate) report.Coordinate {
	return report.Coordinate{Kind: c.Kind, Pubkey: c.Pubkey, Npub: graph.Npub(c.Pubkey), Identifier: c.Identifier, Naddr: gitstate.EncodeNaddr(c, nil)}
}

func stateOf(s *gitstate.State) *stateEventJSON {
	if s == nil {
		return nil
	}
	out := &stateEventJSON{EventID: s.EventID, Author: graph.Npub(s.Author), CreatedAt: s.CreatedAt, Head: s.Head, Refs: map[string]string{}}
	for k, v := range s.Refs {
		out.Refs[k] = v
	}
	return out
}

// checkoutAlignment reads the checkout's refs (failing closed: refs that
// cannot be read completely are exit 3 naming the file and the fix) and
// compares them with the resolved state.
func checkoutAlignment(v *repoView) (*checkoutCompareJSON, error) {
	co := v.Checkout
	local, err := co.LocalRefs()
	if err != nil {
		return nil, localRefsErr(err)
	}
	prefer := ""
	if rest, ok := strings.CutPrefix(v.Selection.Detail, "remote "); ok && !strings.Contains(rest, ",") {
		prefer = rest
	}
	remote, err := co.NostrRemote(v.Coordinate(), prefer)
	if err != nil {
		return nil, localRefsErr(err)
	}
	tracking, err := co.TrackingBranches(remote)
	if err != nil {
		return nil, localRefsErr(err)
	}
	var st *preflight.ResolvedState
	if v.State != nil {
		st = &preflight.ResolvedState{EventID: v.State.EventID, Author: v.State.Author, Head: v.State.Head, Refs: v.State.Refs}
	}
	al := preflight.AlignCheckout(st, local, tracking)
	return &checkoutCompareJSON{Dir: co.Dir(), Remote: remote, Head: al.Head, Aligned: st != nil && len(al.Align) == 0,
		Align: al.Align, ForceWould: al.ForceWould, Tracked: al.Tracked}, nil
}

func localRefsErr(err error) error {
	return &exitError{Code: exitRefused, Kind: statepub.CodeLocalRefs,
		Err:      fmt.Errorf("cannot compare this checkout with the repository state: %w", err),
		Commands: []suggest.Command{suggest.Git("fsck").Because("what is damaged in this checkout")}}
}

func renderStateHuman(w io.Writer, rep stateReportJSON) {
	if rep.State == nil {
		fmt.Fprintln(w, "state:   none (no confirmed maintainer has published a kind 30618 state)")
	} else {
		s := rep.State
		fmt.Fprintf(w, "state:   %s by %s\n", termtext.Line(s.EventID), s.Author)
		fmt.Fprintf(w, "HEAD:    %s\n", orDash(termtext.Line(s.Head)))
		for _, k := range sortedKeys(s.Refs) {
			fmt.Fprintf(w, "  %s  %s\n", termtext.Line(k), termtext.Line(s.Refs[k]))
		}
	}
	if !rep.Complete {
		fmt.Fprintln(w, "(incomplete: not every relay answered; a newer state may exist)")
	}
	c := rep.Checkout
	if c == nil {
		fmt.Fprintln(w, "no checkout here: run inside the repository's checkout to compare its refs")
		return
	}
	switch {
	case rep.State != nil && c.Aligned:
		fmt.Fprintf(w, "this checkout (%s) is aligned with the state\n", c.Dir)
	case rep.State != nil:
		fmt.Fprintf(w, "to align this checkout (%s) with the state:\n", c.Dir)
		for _, l := range preflight.RenderRefActions(c.Align) {
			fmt.Fprintf(w, "  %s\n", termtext.Line(l))
		}
	}
	if len(c.ForceWould) > 0 {
		fmt.Fprintln(w, "publishing this checkout's refs (roster repo state publish) would:")
		for _, l := range preflight.RenderRefActions(c.ForceWould) {
			fmt.Fprintf(w, "  %s\n", termtext.Line(l))
		}
	}
	if len(c.Tracked) > 0 {
		fmt.Fprintf(w, "aligned through %s's remote-tracking branches: %s\n", c.Remote, strings.Join(c.Tracked, ", "))
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// newRepoStatePublishCmd is `roster repo state publish`.
func newRepoStatePublishCmd(a *app) *cobra.Command {
	var force, dryRun bool
	cmd := &cobra.Command{
		Use:   "publish",
		Short: "Publish this checkout's branches and tags as the repository state (kind 30618)",
		Long: `roster repo state publish signs this checkout's branches and tags as a kind
30618 state event in ngit's shape and publishes it to the repository's
relays. Only a confirmed maintainer may. State branches the checkout has
only as the nostr:// remote's remote-tracking branches at the state's commit
are kept.

It refuses (exit 3, nothing published): a ref whose new commit does not
descend from the resolved one, and the removal of a resolved ref, unless
--force; a ref whose object no Git server of the repository advertises (it
names the git push that fixes it); a checkout whose refs cannot be read.
When no Git server could be listed it is exit 4. The event is dated after
every state event it replaces, read back from every relay, and the
repository is resolved again: the state in effect must be the one published
(exit 6 otherwise).`,
		Example: `  roster repo state publish --dry-run
  roster repo state publish
  roster repo state publish --force   # replace diverged or removed refs deliberately`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.runStatePublish(cmd.Context(), statepub.Options{Force: force, DryRun: dryRun})
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "publish refs that do not descend from the resolved ones, and remove resolved refs this checkout lacks")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "show what would be published; publish nothing")
	return cmd
}

// statePublishJSON is roster.state-publish/v1.
type statePublishJSON struct {
	Schema       string                `json:"schema"`
	DryRun       bool                  `json:"dry_run"`
	Forced       bool                  `json:"forced"`
	Coordinate   report.Coordinate     `json:"coordinate"`
	Resolved     *stateEventJSON       `json:"resolved"`
	Event        statePublishEventJSON `json:"event"`
	Changes      []preflight.RefAction `json:"changes"`
	Rewrites     []statepub.Rewrite    `json:"rewrites"`
	Tracked      []string              `json:"tracked"`
	Availability map[string]any        `json:"availability"`
	Unchanged    bool                  `json:"unchanged"`
	Published    []string              `json:"published"`
	Relays       []relaypool.Delivered `json:"relays"`
	Verified     bool                  `json:"verified"`
}

type statePublishEventJSON struct {
	ID        string            `json:"id"`
	CreatedAt int64             `json:"created_at"`
	Head      string            `json:"head"`
	Refs      map[string]string `json:"refs"`
}

func (a *app) runStatePublish(ctx context.Context, opts statepub.Options) error {
	if a.opts.Offline {
		return usageErr("--offline cannot be used to publish state: it needs complete answers from the relays")
	}
	s, err := a.signer(ctx)
	if err != nil {
		return err
	}
	p := statepub.Pipeline{
		Discover: func(ctx context.Context) (*repoView, error) { return a.loadRepo(ctx, completeEvidence) },
		Now:      a.io.Now,
		Signer:   s,
		Deliver: func(ctx context.Context, relays []string, evt *nostr.Event, o relaypool.DeliverOptions) *relaypool.Delivery {
			pool := relaypool.New(relaypool.Options{Timeout: a.opts.Timeout, Auth: a.authSigner})
			defer pool.Close()
			return pool.Deliver(ctx, relays, evt, o)
		},
		Availability: gitstate.CheckAvailability,
	}
	o, err := p.Run(ctx, opts)
	if err != nil {
		return a.statePublishFailure(err, opts)
	}
	out := statePublishResult(o, opts)
	if a.opts.JSON {
		return writeJSON(a, out)
	}
	renderStatePublishHuman(a, o, out)
	return nil
}

func statePublishResult(o *statepub.Outcome, opts statepub.Options) statePublishJSON {
	out := statePublishJSON{Schema: statePublishSchema, DryRun: opts.DryRun, Forced: opts.Force, Changes: []preflight.RefAction{},
		Rewrites: []statepub.Rewrite{}, Tracked: []string{}, Published: []string{}, Relays: []relaypool.Delivered{},
		Availability: map[string]any{}}
	if o == nil {
		return out
	}
	if o.View != nil {
		out.Coordinate, out.Resolved = coordinateOf(o.View.Coordinate()), stateOf(o.View.State)
	}
	if pl := o.Plan; pl != nil {
		out.Event = statePublishEventJSON{CreatedAt: pl.CreatedAt, Head: pl.Head, Refs: pl.Refs}
		out.Changes = append(out.Changes, pl.Changes...)
		out.Rewrites = append(out.Rewrites, pl.Rewrites...)
		out.Tracked = append(out.Tracked, pl.Tracked...)
		if pl.Availability.Verdict != "" {
			out.Availability = gitstate.AvailabilityDetails(pl.Availability)
		}
	}
	if out.Event.Refs == nil {
		out.Event.Refs = map[string]string{}
	}
	out.Unchanged = o.Unchanged
	if o.Event != nil {
		out.Event.ID, out.Event.CreatedAt = o.Event.ID, int64(o.Event.CreatedAt)
	}
	if o.Delivery != nil {
		out.Relays = append(out.Relays, o.Delivery.Relays...)
		if o.Delivery.Accepted > 0 {
			out.Published = append(out.Published, o.Event.ID)
		}
	}
	out.Verified = o.Verified
	return out
}

func renderStatePublishHuman(a *app, o *statepub.Outcome, out statePublishJSON) {
	w := a.io.Out
	switch {
	case o.Unchanged:
		fmt.Fprintf(w, "your state %s already carries these refs; nothing to publish\n", termtext.Line(o.View.State.EventID))
		return
	case o.DryRun:
		fmt.Fprintln(w, "dry run: would publish this state (nothing was published)")
	default:
		fmt.Fprintf(w, "published state %s, read back and resolved\n", out.Event.ID)
	}
	fmt.Fprintf(w, "HEAD:    %s\n", orDash(out.Event.Head))
	for _, k := range sortedKeys(out.Event.Refs) {
		fmt.Fprintf(w, "  %s  %s\n", k, out.Event.Refs[k])
	}
	if len(out.Changes) == 0 {
		fmt.Fprintln(w, "changes to the resolved state: none (same refs, signed by you)")
	} else {
		fmt.Fprintln(w, "changes to the resolved state:")
		for _, l := range preflight.RenderRefActions(out.Changes) {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if o.Plan != nil && o.Plan.Forced && len(o.Plan.Rewrites) > 0 {
		fmt.Fprintf(w, "--force: %d ref(s) replaced that did not descend or were removed\n", len(o.Plan.Rewrites))
	}
	for _, r := range out.Relays {
		fmt.Fprintf(w, "relay %s: ok=%v read_back=%v %s\n", r.URL, r.OK, r.ReadBack, termtext.Line(r.Message))
	}
}

// statePublishFailure maps the pipeline's failures to exit codes.
func (a *app) statePublishFailure(err error, opts statepub.Options) error {
	var (
		f  *statepub.Failure
		se *statepub.SignerError
	)
	switch {
	case errors.As(err, &se):
		return signerError(se.Err)
	case !errors.As(err, &f):
		return err
	}
	code := map[statepub.Class]int{statepub.Refused: exitRefused, statepub.Incomplete: exitIncomplete,
		statepub.Unverified: exitUnverified, statepub.Failed: exitFailure, statepub.Usage: exitUsage}[f.Class]
	lines := append(append([]string{}, f.Lines...), indentLines(f.Problems)...)
	details := map[string]any{}
	switch {
	case f.Availability != nil:
		details = gitstate.AvailabilityDetails(*f.Availability)
	case len(f.Rewrites) > 0:
		details["rewrites"] = f.Rewrites
	}
	if f.Code == statepub.CodeUnverified || f.Code == statepub.CodePublishFailed {
		res := statePublishResult(f.Outcome, opts)
		details["published"], details["relays"] = res.Published, res.Relays
		if f.Code == statepub.CodeUnverified {
			details["problems"] = f.Problems
		}
	}
	// Each line may carry relay- or announcement-supplied text (clone
	// URLs, event ids): it is escaped alone, so the only line breaks are
	// roster's.
	terminal := termtext.Lines(lines)
	if code == exitRefused || code == exitIncomplete || code == exitUsage {
		lines = append(lines, "nothing was published")
		terminal = append(terminal, "nothing was published")
	}
	return &exitError{Code: code, Kind: f.Code, Err: errors.New(strings.Join(lines, "\n")), Details: details, Commands: f.Commands,
		Terminal: strings.Join(terminal, "\n")}
}

func indentLines(ls []string) []string {
	out := make([]string, 0, len(ls))
	for _, l := range ls {
		out = append(out, "  "+l)
	}
	return out
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
