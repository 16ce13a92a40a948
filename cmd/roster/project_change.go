// `roster project relate|unrelate`: read, check, sign, submit, read back,
// retrying once on a conflict.

package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/projects"
)

// projectBeforeSign, when set (tests only), runs after a change has been
// checked against the state it read and before it is signed: it lets a test
// line up two changes against one revision.
var projectBeforeSign func(attempt int)

// projectChangeJSON is the result of relate/unrelate (schema roster.project.change/v1).
type projectChangeJSON struct {
	Schema           string   `json:"schema"`
	Coordinate       string   `json:"coordinate"`
	Relay            string   `json:"relay"`
	Actor            string   `json:"actor"`
	ActorNpub        string   `json:"actor_npub"`
	Add              []string `json:"add"`
	Remove           []string `json:"remove"`
	ExpectedRevision int64    `json:"expected_revision"`
	Revision         int64    `json:"revision"`
	RelatedChannels  []string `json:"related_channels"`
	Published        []string `json:"published"`
	Retried          bool     `json:"retried"`
}

// projectChange reads, checks, signs, submits and reads back one change,
// retrying once on a conflict.
func projectChange(ctx context.Context, a *app, s signer.Signer, relay string, c projects.Coordinate, patch projects.Patch, verb string) error {
	actor, err := s.PublicKey(ctx)
	if err != nil {
		return signerError(err)
	}
	pool := relaypool.New(relaypool.Options{Timeout: a.opts.Timeout, Auth: s.SignEvent})
	defer pool.Close()
	out := projectChangeJSON{Schema: "roster.project.change/v1", Coordinate: c.String(), Relay: relay, Actor: actor, ActorNpub: gitstate.EncodeNpub(actor),
		Add: patch.Add, Remove: patch.Remove, Published: []string{}}
	for attempt := 0; attempt < 2; attempt++ {
		rd, err := projectCurrent(ctx, pool, relay, c)
		if err != nil {
			return err
		}
		st := rd.best
		if err := projectCheck(ctx, pool, relay, rd.relays[0].Self, actor, st, patch); err != nil {
			return err
		}
		if projectBeforeSign != nil {
			projectBeforeSign(attempt)
		}
		evt, err := projects.BuildChange(c, st.Revision, patch, nostr.Timestamp(a.io.Now().Unix()))
		if err != nil {
			return err
		}
		if err := s.SignEvent(ctx, evt); err != nil {
			return signerError(err)
		}
		rep := pool.Publish(ctx, []string{relay}, evt)[0]
		out.ExpectedRevision = st.Revision
		out.Retried = attempt > 0
		if !rep.OK && strings.HasPrefix(rep.Message, "conflict:") {
			if attempt == 0 {
				continue // another change committed first: re-read, re-check, retry once
			}
			return &exitError{Code: exitRefused, Kind: "conflict",
				Err:      fmt.Errorf("the project changed again while roster retried, so nothing was committed: %s", rep.Message),
				Details:  map[string]any{"coordinate": c.String(), "relay": relay, "expected_revision": st.Revision},
				Commands: []string{fmt.Sprintf("roster project show %s --relay %s", c, relay)}}
		}
		if !rep.OK && rep.Message != "" && !strings.HasPrefix(rep.Message, "timeout:") && !strings.HasPrefix(rep.Message, "error: ") {
			return &exitError{Code: exitRefused, Kind: "relay-rejected",
				Err:      fmt.Errorf("%s refused the change, nothing was committed: %s", relay, rep.Message),
				Details:  map[string]any{"coordinate": c.String(), "relay": relay, "event_id": evt.ID},
				Commands: []string{fmt.Sprintf("roster project show %s --relay %s", c, relay)}}
		}
		if !rep.OK {
			return &exitError{Code: exitUnverified, Kind: "unconfirmed",
				Err:      fmt.Errorf("%s did not confirm the change (%s); check whether the revision advanced past %d", relay, rep.Message, st.Revision),
				Details:  map[string]any{"coordinate": c.String(), "relay": relay, "event_id": evt.ID},
				Commands: []string{fmt.Sprintf("roster project show %s --relay %s", c, relay)}}
		}
		out.Published = append(out.Published, evt.ID)
		rdAfter, err := projectCurrent(ctx, pool, relay, c)
		after := rdAfter.best
		if err != nil || after.Revision <= st.Revision || !projectApplied(after.Document, patch) {
			return &exitError{Code: exitUnverified, Kind: "unverified",
				Err:      fmt.Errorf("%s accepted the change (event %s) but its Project State does not show it yet", relay, evt.ID),
				Details:  map[string]any{"coordinate": c.String(), "relay": relay, "event_id": evt.ID},
				Commands: []string{fmt.Sprintf("roster project show %s --relay %s", c, relay)}}
		}
		projectCachePut(a, rdAfter)
		out.Revision = after.Revision
		out.RelatedChannels = orEmptySlice(after.Document.RelatedChannels)
		if a.opts.JSON {
			return writeJSON(a, out)
		}
		fmt.Fprintf(a.io.Out, "%sd %d channel(s) for %s: revision %d -> %d", verb, len(patch.Add)+len(patch.Remove), c, st.Revision, after.Revision)
		if out.Retried {
			fmt.Fprint(a.io.Out, " (retried once after a concurrent change)")
		}
		fmt.Fprintf(a.io.Out, "\n  related channels: %s\n", strings.Join(out.RelatedChannels, ", "))
		return nil
	}
	return errors.New("unreachable")
}

// projectApplied reports whether doc shows the whole patch.
func projectApplied(doc projects.Document, p projects.Patch) bool {
	for _, ch := range p.Add {
		if !doc.Related(ch) {
			return false
		}
	}
	for _, ch := range p.Remove {
		if doc.Related(ch) {
			return false
		}
	}
	return true
}
