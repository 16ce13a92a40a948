package hooks

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// PushedRef is one line Git gives pre-push on stdin:
// `<local ref> SP <local oid> SP <remote ref> SP <remote oid>`.
type PushedRef struct {
	LocalRef, LocalOID, RemoteRef, RemoteOID string
}

// Deletes reports whether the push deletes the remote ref (local oid all zeros).
func (p PushedRef) Deletes() bool { return strings.Trim(p.LocalOID, "0") == "" }

// ParsePushed reads pre-push's stdin. A line that is not four words is an
// error naming it: the guard does not guess what is being pushed.
func ParsePushed(r io.Reader) ([]PushedRef, error) {
	var out []PushedRef
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil, fmt.Errorf("pre-push input line %q is not `<local ref> <local oid> <remote ref> <remote oid>`", line)
		}
		out = append(out, PushedRef{f[0], f[1], f[2], f[3]})
	}
	return out, sc.Err()
}

// GuardInput is everything the pre-push decision looks at.
type GuardInput struct {
	// Resolution is the fresh resolution of the checkout's coordinate.
	Resolution *graph.Resolution
	// Events are the verified events it was resolved from (the viewer's
	// own kind 30618 state is looked for among them).
	Events []*nostr.Event
	// StateEventID, StateAuthor and StateRefs are the accepted component's
	// resolved kind 30618 state (empty when there is none).
	StateEventID, StateAuthor string
	StateRefs                 map[string]string
	// Viewer is the signer's hex pubkey ("" when nobody is signed in).
	Viewer string
	// Complete is true when every relay asked answered within the deadline.
	Complete bool
	// Unanswered names the relays that did not (for the warning).
	Unanswered []string
	Pushed     []PushedRef
	// IsAncestor is the checkout's ancestry (gitstate.Checkout.IsAncestor).
	IsAncestor func(ancestor, descendant string) (bool, error)
	// FreshFetch is set when a confirmation made in this home still awaits
	// the fresh fetch the spec requires before the next push: "No push ...
	// is allowed until a fresh fetch verifies the accepted state against
	// the local refs". The pushed refs are then compared with the accepted
	// state whatever the signer published, and incomplete evidence refuses
	// the push instead of letting it through.
	FreshFetch bool
}

// Reasons the guard refuses a push.
const (
	ReasonRemovedByLead = "push-removed-by-lead"
	ReasonNotDescended  = "push-not-descended"
	// ReasonNeedsFreshFetch: a confirmation awaits a fresh fetch and the
	// relays did not give a complete one.
	ReasonNeedsFreshFetch = "push-needs-fresh-fetch"
)

// NeedsFreshFetch is the refusal of a push that must wait for a fresh
// fetch of the accepted state (GuardInput.FreshFetch) which could not be
// made; why says what went wrong.
func NeedsFreshFetch(coord, why string) *Finding {
	return &Finding{Reason: ReasonNeedsFreshFetch,
		Message: fmt.Sprintf("you were confirmed as a maintainer of %s in this home, and your first push after a confirmation must be checked against a fresh, complete read of the accepted repository state from the relays; %s. Push again when the relays answer, or push deliberately unchecked with: git push --no-verify",
			termtext.Line(coord), termtext.Line(why)),
		Commands: []suggest.Command{
			suggest.Roster("repo", "state").Because("see whether the relays answer, and how this checkout differs from the accepted state"),
			suggest.Git("push", "--no-verify").Because("or push without roster's check, deliberately"),
		}}
}

// RefCheck is one pushed ref compared with the resolved state.
type RefCheck struct {
	Ref      string `json:"ref"` // the remote ref pushed to
	LocalRef string `json:"local_ref"`
	Pushed   string `json:"pushed"` // the local oid (zeros for a deletion)
	State    string `json:"state"`  // the state's oid for the ref
	// Verdict is descends, diverged (the pushed commit does not contain the
	// state's), deletes (the push deletes a ref the state has) or unknown.
	Verdict string `json:"verdict"`
	Error   string `json:"error,omitempty"`
}

// Verdicts of a RefCheck.
const (
	VerdictDescends = "descends"
	VerdictDiverged = "diverged"
	VerdictDeletes  = "deletes"
	VerdictUnknown  = "unknown"
)

// Finding is what the guard would refuse a push for. Its Message, like
// Decision.Warnings, is terminal text: the identifier, relay URLs and ref
// names in it (which an announcement or a relay supplied) are escaped to
// one line each (termtext.Line), so its only line breaks are roster's.
type Finding struct {
	Reason   string
	Message  string
	Refs     []RefCheck
	Commands []suggest.Command
}

// Decision is the guard's answer. Refuse is set only on complete
// evidence; a Finding on incomplete evidence is a warning (the push goes
// on: pushing to a Git server is not a Nostr publication).
type Decision struct {
	Refuse   bool
	Finding  *Finding
	Warnings []string
	Checked  []RefCheck
}

// Guard decides whether a push may go on:
//   - a signer whose active self-role the lead no longer assigns (health
//     CodeRemovedByLead about the signer's announcement) may not push;
//   - a signer who is confirmed but has published no kind 30618 state of
//     their own since their confirmation ("just confirmed": a state from
//     before it, such as a former component's, does not count, as
//     "Bob's first later push never becomes an implicit state choice") may
//     not push a ref the accepted state has unless the pushed commit
//     descends from the state's (nor delete such a ref);
//   - anything else goes on. When not every relay answered, what the guard
//     found is reported as a warning and the push goes on; so does a ref
//     whose ancestry could not be established.
func Guard(in GuardInput) Decision {
	var d Decision
	r := in.Resolution
	if in.Viewer == "" || r == nil {
		return d
	}
	coord := graph.Npub(r.Selected.Pubkey) + "/" + termtext.Line(r.Selected.Identifier)
	for _, f := range r.Health {
		if f.Code == graph.CodeRemovedByLead && f.Author == in.Viewer {
			d.Finding = &Finding{Reason: ReasonRemovedByLead,
				Message: fmt.Sprintf("%s no longer lists you as a maintainer of %s, so roster will not push for you: end your self-role and keep its history, or keep this work as a repository of your own",
					graph.Npub(f.Subject), coord),
				Commands: wayOut(r.Selected.Identifier)}
			break
		}
	}
	since, _ := r.EffectiveStart(in.Viewer)
	if d.Finding == nil && r.Confirmed(in.Viewer) && (in.FreshFetch || !hasOwnStateSince(in.Events, in.Viewer, r.Selected.Identifier, since)) && len(in.StateRefs) > 0 {
		d.Checked, d.Warnings = checkRefs(in)
		var bad []RefCheck
		for _, c := range d.Checked {
			if c.Verdict == VerdictDiverged || c.Verdict == VerdictDeletes {
				bad = append(bad, c)
			}
		}
		if len(bad) > 0 {
			var lines []string
			for _, c := range bad {
				if c.Verdict == VerdictDeletes {
					lines = append(lines, fmt.Sprintf("  %s: the push deletes it; the state has %s", termtext.Line(c.Ref), termtext.Line(short(c.State))))
				} else {
					lines = append(lines, fmt.Sprintf("  %s: %s does not contain %s", termtext.Line(c.Ref), termtext.Line(short(c.Pushed)), termtext.Line(short(c.State))))
				}
			}
			since := "have published no repository state since"
			if in.FreshFetch {
				since = "this is your first push since"
			}
			d.Finding = &Finding{Reason: ReasonNotDescended,
				Message: fmt.Sprintf("you were just confirmed as a maintainer of %s and %s, and these refs do not descend from the state the maintainers accepted (event %s by %s):\n%s\nbuild on the accepted state (fetch it and merge or rebase onto it):",
					coord, since, short(in.StateEventID), graph.Npub(in.StateAuthor), strings.Join(lines, "\n")),
				Refs:     bad,
				Commands: buildOn(bad)}
		}
	}
	if in.Complete {
		d.Refuse = d.Finding != nil
		return d
	}
	why := "not every relay answered within the deadline"
	if len(in.Unanswered) > 0 {
		why = fmt.Sprintf("%s did not answer within the deadline", strings.Join(termtext.Lines(in.Unanswered), ", "))
	}
	if in.FreshFetch {
		if d.Finding != nil {
			d.Warnings = append(d.Warnings, "the relays that answered say: "+d.Finding.Message)
		}
		d.Finding, d.Refuse = NeedsFreshFetch(coord, why), true
		return d
	}
	if d.Finding != nil {
		d.Warnings = append(d.Warnings, fmt.Sprintf("the relays that answered say: %s; but %s, so roster lets the push through (pushing to a Git server is not a Nostr publication)",
			d.Finding.Message, why))
	} else {
		d.Warnings = append(d.Warnings, fmt.Sprintf("the push was not fully checked: %s; roster lets it through (pushing to a Git server is not a Nostr publication)", why))
	}
	return d
}

// wayOut are the two ways a refused signer goes on.
func wayOut(identifier string) []suggest.Command {
	return []suggest.Command{
		graph.CommandFollowLead().Because("follow the lead: your announcement keeps its history"),
		suggest.Roster("repo", "init", "--identifier", "<new-identifier>").Because("or keep this work as a repository of your own (" + identifier + " stays the lead's)"),
	}
}

// buildOn are the ways a just-confirmed signer's diverged push goes on:
// see how the checkout differs from the accepted state, and merge the
// state's commit of the first ref that does not contain it. (follow-lead
// is no answer here: the signer is confirmed and their announcement is
// fine; it is their commits that do not build on the state.)
func buildOn(bad []RefCheck) []suggest.Command {
	cmds := []suggest.Command{suggest.Roster("repo", "state").Because("how this checkout differs from the accepted state, ref by ref")}
	for _, c := range bad {
		if c.Verdict == VerdictDiverged {
			cmds = append(cmds, suggest.Git("merge", c.State).Because("build "+c.LocalRef+" on the accepted "+c.Ref+" (after fetching it), then push again"))
			break
		}
	}
	return cmds
}

// checkRefs compares each pushed ref the state has with the state's value.
func checkRefs(in GuardInput) ([]RefCheck, []string) {
	var out []RefCheck
	var warns []string
	for _, p := range in.Pushed {
		want, ok := in.StateRefs[p.RemoteRef]
		if !ok {
			continue // a ref the state does not have: nothing to descend from
		}
		c := RefCheck{Ref: p.RemoteRef, LocalRef: p.LocalRef, Pushed: p.LocalOID, State: want}
		switch {
		case p.Deletes():
			c.Verdict = VerdictDeletes
		case strings.EqualFold(p.LocalOID, want):
			c.Verdict = VerdictDescends
		case in.IsAncestor == nil:
			c.Verdict, c.Error = VerdictUnknown, "no ancestry check"
		default:
			ok, err := in.IsAncestor(want, p.LocalOID)
			switch {
			case err != nil:
				c.Verdict, c.Error = VerdictUnknown, err.Error()
				warns = append(warns, fmt.Sprintf("could not tell whether %s descends from the repository state's %s (%s); not refusing it",
					termtext.Line(p.RemoteRef), termtext.Line(short(want)), termtext.Line(err.Error())))
			case ok:
				c.Verdict = VerdictDescends
			default:
				c.Verdict = VerdictDiverged
			}
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Ref < out[j].Ref })
	return out, warns
}

// hasOwnStateSince reports whether viewer's latest kind 30618 state of
// identifier, not deleted (graph.LatestStateBy, the rule writes use), was
// published at or after since (their effective start; 0: any).
func hasOwnStateSince(events []*nostr.Event, viewer, identifier string, since int64) bool {
	var mine []*nostr.Event
	for _, e := range events {
		if e != nil && (e.Kind == graph.KindDeletion || e.Kind == graph.KindState && e.Tags.GetD() == identifier) {
			mine = append(mine, e)
		}
	}
	e := graph.LatestStateBy(mine, viewer)
	return e != nil && int64(e.CreatedAt) >= since
}

func short(oid string) string {
	if len(oid) > 12 {
		return oid[:12]
	}
	return oid
}
