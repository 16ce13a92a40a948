package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
)

// mutationSchema is the JSON schema of every membership command's result.
const mutationSchema = "roster.mutation/v1"

// beforeRecheck runs between the preview and the pre-signing recheck, and
// afterPublish between publishing and read-back. Tests set them to publish a
// concurrent change or silence a relay; both are nil otherwise.
var beforeRecheck, afterPublish func()

// runMutation is the one publish pipeline of `repo edit`, `accept`, `leave`
// and `follow-lead` (DESIGN.md "A membership mutation"): discover with
// complete evidence from every write relay (else exit 4), preview with
// preflight (refusal: exit 3), then re-read every event the preview used and
// abort if any changed, sign, publish, read back, re-resolve and check the
// result equals the preview (else exit 6). Never a prompt; --dry-run stops
// after the preview.
func (a *app) runMutation(ctx context.Context, intent preflight.Intent, dryRun bool) error {
	if a.opts.Offline {
		return usageErr("--offline cannot be used for a membership change: it needs complete answers from the relays (a cached event is not proof that it is still the latest)")
	}
	s, err := a.signer(ctx)
	if err != nil {
		return err
	}
	author, err := s.PublicKey(ctx)
	if err != nil {
		return signerError(err)
	}
	v, err := a.loadRepo(ctx, completeEvidence)
	if err != nil {
		return a.withMutationRetry(err, intent)
	}
	in := preflight.Input{Author: author, Selected: v.Coordinate(), Events: v.Events, Now: v.Now, Intent: intent,
		SelectState: resolvedState}
	if v.Checkout != nil {
		if refs, err := v.Checkout.LocalRefs(); err == nil {
			in.LocalRefs = refs
		}
	}
	plan, refusal := preflight.Prepare(in)
	if refusal != nil {
		return a.refusalError(v, intent, refusal)
	}
	out := newMutationResult(v, plan, dryRun)
	if dryRun {
		return a.finishMutation(v, plan, out)
	}

	// Recheck: a concurrent graph or state change aborts before signing.
	if beforeRecheck != nil {
		beforeRecheck()
	}
	fresh, err := a.loadRepo(ctx, completeEvidence)
	if err != nil {
		return a.withMutationRetry(err, intent)
	}
	if changed := preflight.FingerprintChanges(plan.Fingerprint, preflight.Fingerprint(fresh.Events)); len(changed) > 0 {
		return a.mutationError(v, &exitError{Code: exitRefused, Kind: "concurrent-change",
			Err: fmt.Errorf("the repository changed after the preview (%s); nothing was published: rerun the command to preview the current state",
				strings.Join(describeFingerprintKeys(changed), ", ")),
			Details:  map[string]any{"changed": describeFingerprintKeys(changed)},
			Commands: []string{intent.Command()}})
	}

	if evt := plan.Event(); evt != nil {
		if err := a.publishVerified(ctx, s, v, plan, evt, out); err != nil {
			return err
		}
	}
	if plan.SwitchTo != nil {
		if err := a.switchCheckout(v, *plan.SwitchTo, out); err != nil {
			return err
		}
	}
	return a.finishMutation(v, plan, out)
}

// publishVerified signs, publishes to every relay asked, reads the event
// back from each, and re-resolves the repository to check it equals the
// preview. Failures after the first relay accepted the event are exit 6.
func (a *app) publishVerified(ctx context.Context, s signer.Signer, v *repoView, plan *preflight.Plan, evt *nostr.Event, out *mutationResult) error {
	if err := s.SignEvent(ctx, evt); err != nil {
		return signerError(err)
	}
	if evt.PubKey != plan.Author {
		return &exitError{Code: exitFailure, Kind: "signer", Err: errors.New("the signer signed with a different key than the preview used; nothing was published")}
	}
	pool := relaypool.New(relaypool.Options{Timeout: a.opts.Timeout, Auth: a.authSigner})
	defer pool.Close()
	reports := pool.Publish(ctx, v.Relays, evt)
	accepted := 0
	for _, r := range reports {
		out.Relays = append(out.Relays, publishJSON{URL: r.URL, OK: r.OK, Message: r.Message})
		if r.OK {
			accepted++
		}
	}
	if accepted == 0 {
		return a.mutationError(v, &exitError{Code: exitFailure, Kind: "publish-failed",
			Err:      fmt.Errorf("no relay accepted the replacement announcement %s; nothing was published", evt.ID),
			Details:  map[string]any{"relays": out.Relays},
			Commands: []string{plan.Intent.Command()}})
	}
	out.Published = append(out.Published, evt.ID)
	if afterPublish != nil {
		afterPublish()
	}
	found, rb := pool.ReadBack(ctx, v.Relays, []string{evt.ID})
	for i := range out.Relays {
		out.Relays[i].ReadBack = slices.Contains(found[evt.ID], out.Relays[i].URL)
	}
	var problems []string
	for _, r := range out.Relays {
		if !r.OK {
			problems = append(problems, fmt.Sprintf("%s did not accept it: %s", r.URL, r.Message))
		} else if !r.ReadBack {
			problems = append(problems, fmt.Sprintf("%s accepted it but did not return it on read-back", r.URL))
		}
	}
	if !rb.Complete {
		problems = append(problems, "not every relay answered the read-back")
	}
	if len(problems) == 0 {
		after, err := a.loadRepo(ctx, completeEvidence)
		if err != nil {
			problems = append(problems, "re-reading the repository failed: "+err.Error())
		} else {
			problems = append(problems, differsFromPreview(plan.After, after.Resolution)...)
			out.resolvedAfter = after
		}
	}
	if len(problems) > 0 {
		// Rerunning the change would not republish it: where it was stored
		// it is already in effect, so the rerun is refused as already done.
		// The useful next step is to look at what each relay now serves.
		cmds := []string{"roster repo   (check what the relays now resolve)"}
		for _, r := range out.Relays {
			if !r.OK || !r.ReadBack {
				cmds = append(cmds, "roster repo"+a.repoFlag()+" --relay "+shellQuote(r.URL)+"   # what "+r.URL+" serves now")
			}
		}
		return a.mutationError(v, &exitError{Code: exitUnverified, Kind: "unverified",
			Err: fmt.Errorf("published %s, but verification did not complete:\n  %s\nit is in effect where it was stored; rerunning the change does not republish it",
				evt.ID, strings.Join(problems, "\n  ")),
			Details:  map[string]any{"published": out.Published, "relays": out.Relays, "problems": problems},
			Commands: cmds})
	}
	out.Verified = true
	return nil
}

// differsFromPreview compares the re-resolved repository with the preview's
// simulated one: lead, lead source, and every maintainer's and moderator's status.
func differsFromPreview(want, got *graph.Resolution) []string {
	var out []string
	if want.Lead != got.Lead || want.LeadSource != got.LeadSource {
		out = append(out, fmt.Sprintf("lead resolved to %s (%s), the preview said %s (%s)",
			dashIfEmpty(graph.Npub(got.Lead)), got.LeadSource, dashIfEmpty(graph.Npub(want.Lead)), want.LeadSource))
	}
	if !slices.Equal(want.Maintainers, got.Maintainers) {
		out = append(out, "the maintainers resolved differ from the preview")
	}
	if !slices.Equal(want.Moderators, got.Moderators) {
		out = append(out, "the moderators resolved differ from the preview")
	}
	return out
}

// switchCheckout anchors the checkout at the lead's coordinate
// (maintainers.md "Transferring the lead": follow-lead "switches the local
// nostr:// coordinate and nostr.repo"): nostr.repo, and every remote URL
// (origin, a tracked remote, a pushurl) that named the coordinate being left.
// Outside a checkout it only says which --repo to use from now on.
//
// The selection's relay hints move with it: the lead's coordinate is the
// same repository on the same relays, and a nostr.repo naddr without the
// hint the old one carried leaves `roster repo` in the checkout with no
// relay to ask.
func (a *app) switchCheckout(v *repoView, to graph.Coordinate, out *mutationResult) error {
	hints := v.Selection.Relays
	url := gitstate.NostrURL(to, nil)
	out.SwitchedTo = &url
	if v.Checkout == nil {
		out.Guidance = append(out.Guidance, "no checkout here to switch; select the lead's coordinate from now on with: roster repo --repo "+
			shellQuote(gitstate.NostrURL(to, hints))+a.relayFlags())
		return nil
	}
	naddr := gitstate.EncodeNaddr(to, hints)
	remotes, err := v.Checkout.FollowCoordinate(v.Coordinate(), to, hints)
	if err != nil {
		return &exitError{Code: exitFailure, Kind: "git-config", Err: fmt.Errorf("switch the checkout to %s: %w", url, err),
			Commands: []string{"git config nostr.repo " + naddr}}
	}
	out.SwitchedRemotes = append(out.SwitchedRemotes, remotes...)
	return nil
}

// withMutationRetry puts the change itself first among the commands of an
// incomplete read (exit 4) or of a selection with no relay to ask (exit 2):
// the read's own suggestions are `roster repo` reads, and the user wants to
// retry the change.
// An --offline suggestion is dropped: a membership change refuses --offline.
func (a *app) withMutationRetry(err error, intent preflight.Intent) error {
	var ee *exitError
	if !errors.As(err, &ee) || ee.Printed {
		return err
	}
	var cmds []string
	switch {
	case ee.Code == exitIncomplete:
		cmds = []string{a.withSelectors(intent.Command()) + " --timeout 30s   # retry the change once every relay answers; nothing was published"}
	case ee.Kind == "no-relays":
		cmds = []string{a.withSelectors(intent.Command()) + " --relay wss://<relay>   # the change, on the relays that carry the repository"}
	default:
		return err
	}
	for _, c := range ee.Commands {
		if !strings.Contains(c, " --offline") {
			cmds = append(cmds, c)
		}
	}
	ee.Commands = cmds
	return ee
}

// resolvedState adapts the read pipeline's state selection to preflight.
func resolvedState(events []*nostr.Event, r *graph.Resolution) *preflight.ResolvedState {
	evt := graph.SelectState(events, r)
	if evt == nil {
		return nil
	}
	st, err := gitstate.ParseState(evt)
	if err != nil {
		return nil
	}
	return &preflight.ResolvedState{EventID: st.EventID, Author: st.Author, Head: st.Head, Refs: st.Refs}
}

// describeFingerprintKeys renders "30617:<hex>" keys as people say them.
func describeFingerprintKeys(keys []string) []string {
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		kind, rest, _ := strings.Cut(k, ":")
		switch kind {
		case "30617":
			out = append(out, "announcement of "+graph.Npub(rest))
		case "30618":
			out = append(out, "repository state of "+graph.Npub(rest))
		default:
			out = append(out, "deletion "+rest)
		}
	}
	return out
}

// refusalError turns a preflight refusal into exit 3 (exit 2 for
// contradictory flags); "nothing-to-change" is success with a message.
func (a *app) refusalError(v *repoView, intent preflight.Intent, r *preflight.Refusal) error {
	if r.Code == "nothing-to-change" {
		if a.opts.JSON {
			out := newMutationResult(v, nil, false)
			out.Action, out.Command, out.Verified = string(intent.Action), a.withSelectors(intent.Command()), true
			out.Guidance = append(out.Guidance, r.Message)
			return writeJSON(a, out)
		}
		fmt.Fprintln(a.io.Out, r.Message)
		a.printAdvisories(v)
		return nil
	}
	code := exitRefused
	if r.Usage {
		code = exitUsage
	}
	return a.mutationError(v, &exitError{Code: code, Kind: r.Code, Err: errors.New(r.Message), Details: r.Details, Commands: r.Commands})
}

// mutationError prints a refusal or failure with the people fields (JSON)
// or the message, commands and advisories (human), and returns its code.
func (a *app) mutationError(v *repoView, ee *exitError) error {
	ee.Commands = a.withSelectorsAll(ee.Commands)
	if a.opts.JSON {
		out := newMutationResult(v, nil, false)
		out.Error = &errorJSON{Code: ee.Kind, Message: ee.Err.Error(), Details: orEmptyMap(ee.Details), Commands: orEmptySlice(ee.Commands)}
		_ = writeJSON(a, out)
	} else {
		fmt.Fprintf(a.io.Err, "roster: %s\n", ee.Err)
		for _, c := range ee.Commands {
			fmt.Fprintf(a.io.Err, "  run: %s\n", c)
		}
		if ee.Code == exitRefused || ee.Code == exitUsage {
			fmt.Fprintln(a.io.Err, "nothing was published")
		}
		a.printAdvisories(v)
	}
	ee.Printed = true
	return ee
}
